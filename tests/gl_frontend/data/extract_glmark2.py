import subprocess, glob, re, hashlib, os, sys
out = sys.argv[1]
seen = {}
for tr in sorted(glob.glob('/work/shared/traces-gl/glmark2-*.trace')):
    dump = subprocess.run(['apitrace', 'dump', '--multiline=no', tr], capture_output=True, text=True).stdout
    types = {}
    for m in re.finditer(r'glCreateShader\(type = (GL_\w+)\) = (\d+)', dump):
        types[m.group(2)] = 'vert' if m.group(1) == 'GL_VERTEX_SHADER' else 'frag'
    for m in re.finditer(r'glShaderSource\(shader = (\d+), count = 1, string = &"((?:[^"\\]|\\.)*)"', dump):
        import codecs; src = ''.join(c if (32 <= ord(c) < 127 or c in '\t\n') else '?' for c in codecs.escape_decode(m.group(2).encode('utf-8'))[0].decode('latin-1'))
        h = hashlib.sha1(src.encode()).hexdigest()[:8]
        if h in seen: continue
        kind = types.get(m.group(1), 'unknown')
        scene = os.path.basename(tr).split('_')[0].replace('glmark2-', '')
        name = f'{scene}-{h}.{kind}'
        seen[h] = name
        open(os.path.join(out, name), 'w').write(src)
print(len(seen))
