#!/usr/bin/env python3
"""A sample of piglit's desktop groups outside the suite's lists.

Reads test names (`piglit print-cmd quick --format '{name}'`) on stdin and
prints every 40th test of groups over 1000 tests, every 10th of groups over
200 and every 4th of the rest, leaving out the groups run_piglit.sh already
runs whole (desktop, compatibility, GLSL 1.10/1.20, ES) and the ES-only,
GLX and EGL ones. docs/PIGLIT.md ("Beyond the lists") has its figures.
"""
import collections
import re
import sys

LISTED = set('''glsl-1.30 glsl-1.50 glsl-3.30 !opengl_3.0 !opengl_3.1 !opengl_3.3
arb_fragment_coord_conventions arb_shader_bit_encoding arb_sampler_objects arb_instanced_arrays
arb_vertex_array_object arb_timer_query arb_seamless_cube_map arb_depth_clamp arb_provoking_vertex
arb_texture_storage ext_texture_swizzle arb_occlusion_query2 arb_half_float_vertex
arb_vertex_type_2_10_10_10_rev arb_texture_multisample arb_copy_buffer arb_compute_shader
arb_shader_storage_buffer_object arb_shader_atomic_counters arb_shader_image_load_store arb_viewport_array
glsl-1.10 glsl-1.20 !opengl_1.0 !opengl_1.1 !opengl_1.2 !opengl_1.3 !opengl_1.4 !opengl_1.5 !opengl_2.1
!opengl_es_2.0 !opengl_es_3.0 egl oes_egl_image_external'''.split())

groups = collections.defaultdict(list)
for line in sys.stdin:
    name = line.strip()
    parts = name.split('@')
    if len(parts) < 2 or parts[0] != 'spec':
        continue
    group = parts[1].replace(' ', '_')
    if group in LISTED or group.startswith(('glsl-es', 'glx', 'egl')) or re.search(r'_gles[123]', name):
        continue
    groups[group].append(name)
for names in groups.values():
    step = 40 if len(names) > 1000 else 10 if len(names) > 200 else 4
    for name in names[::step]:
        print(name)
