#!/usr/bin/env bash
# Issue 11 item 7: `mgl run` must not leave orphans. For SIGTERM and SIGKILL
# of `mgl run --transport shm|tcp` with a program rendering: within 5 s no
# process of that run (its server, its program) remains, and no socket file
# or private directory. A victim on a separate server stays undisturbed.
# usage: run_orphans.sh MGL TRACE_DIR ATTACK
source "$(dirname "$0")/lib.sh"
hostile_init "$1" "$2"

start_server main --listen "unix:$work/main.sock" || exit 1
start_victim "shm:$work/main.sock"

for sig in TERM KILL; do
    for transport in shm tcp; do
        what="kill -$sig of mgl run --transport $transport"
        env -u DISPLAY WAFFLE_PLATFORM=surfaceless_egl "$mgl" run --transport $transport \
            --server-log "$work/run-$sig-$transport.log" -- \
            eglretrace --headless --loop=-1 "$traces/$victim_trace" >"$work/run-$sig-$transport.out" 2>&1 &
        run=$!
        # Until its program has a session on its server.
        for ((t = 0; t < 150; t++)); do
            grep -q "session [0-9]* open" "$work/run-$sig-$transport.log" 2>/dev/null && break
            sleep 0.1
        done
        kids=$(pgrep -P $run | tr '\n' ' ')
        sock=$(for k in $kids; do tr '\0' '\n' <"/proc/$k/cmdline"; done 2>/dev/null | sed -n 's/^unix://p')
        rundir=$(for k in $kids; do tr '\0' '\n' <"/proc/$k/cmdline"; done 2>/dev/null | grep -A1 -- '--run-dir' | tail -1)
        if [[ $(wc -w <<<"$kids") -lt 2 ]] || ! grep -q "session [0-9]* open" "$work/run-$sig-$transport.log"; then
            bad "$what: the run did not start (processes: $kids)"; tail -3 "$work/run-$sig-$transport.out"
            kill -9 $run $kids 2>/dev/null; continue
        fi
        echo "$what: run $run, its processes $kids, socket ${sock:-none}"
        kill -$sig $run
        left=""
        for ((t = 0; t < 50; t++)); do
            left=""
            for k in $run $kids; do kill -0 "$k" 2>/dev/null && [[ "$(cat /proc/$k/stat 2>/dev/null | awk '{print $3}')" != Z ]] && left+=" $k"; done
            [[ -z "$left" && ( -z "$sock" || ! -e "$sock" ) && ( -z "$rundir" || ! -e "$rundir" ) ]] && break
            sleep 0.1
        done
        wait $run 2>/dev/null
        if [[ -n "$left" ]]; then bad "$what: still running after 5 s:$left"; kill -9 $left 2>/dev/null
        elif [[ -n "$sock" && -e "$sock" ]]; then bad "$what: the socket $sock is left behind"
        elif [[ -n "$rundir" && -e "$rundir" ]]; then bad "$what: the directory $rundir is left behind"
        else ok "$what: its server and program ended within $((t / 10)).$((t % 10)) s, nothing left behind"; fi
    done
done
check_victim "mgl run killed"
check_server_alive main "shm:$work/main.sock"
hostile_done
