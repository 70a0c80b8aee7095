#!/usr/bin/env python3
# docs/scaling_server_sim.py — an estimate, beside docs/scaling.md, of what the pool's change
# to the parent's loop is worth at 16 workers: the parent as one server on a core of its own
# (unlike tk_pool_model, whose parent shares the workers' cores), every unit costing it P ns
# when the sink takes it and every pipe read 2 us.
#   before: the sink runs while each pipe is read; idle workers get chunks at the next loop
#   after:  a worker gets its next chunk as soon as its pipe is read; the sink runs after all
#           ready pipes, 16 units at a time, looking at the pipes between slices
# Usage: python3 docs/scaling_server_sim.py TIMES_FILE P_NS [JOBS]
# (TIMES_FILE from `taikai bench pool SPEC --times FILE`.) Not a test: a model of the loop.
import sys
def chunk(left, jobs):
    return 0 if not left else max(1, min(64, left // (4 * jobs)))
def run(t, jobs, p, mode, read_cost=2000):
    n = len(t); nxt = 0; now = 0.0
    done_at = {}            # worker -> finish time of its chunk
    chunk_of = {}
    ring = set(); next_write = 0
    def start(w, at):
        nonlocal nxt
        c = chunk(n - nxt, jobs)
        if not c: return
        units = list(range(nxt, nxt + c)); nxt += c
        chunk_of[w] = units
        done_at[w] = at + sum(t[u] for u in units)
    for w in range(jobs): start(w, 0.0)
    while next_write < n:
        # next event: earliest finished chunk not yet read
        ready = [w for w in done_at if done_at[w] <= now]
        if not ready:
            if not done_at: break
            now = max(now, min(done_at.values())); continue
        idle = []
        for w in sorted(ready):
            now += read_cost
            for u in chunk_of.pop(w): ring.add(u)
            del done_at[w]
            if mode == 'before':
                while next_write in ring: ring.discard(next_write); next_write += 1; now += p
                idle.append(w)
            else:
                start(w, now)
        if mode == 'before':
            for w in idle: start(w, now)
        else:
            k = 0
            while next_write in ring and k < 16: ring.discard(next_write); next_write += 1; now += p; k += 1
            # keep flushing slices between looks at the pipes
            while next_write in ring:
                if any(done_at[w] <= now for w in done_at): break
                k = 0
                while next_write in ring and k < 16: ring.discard(next_write); next_write += 1; now += p; k += 1
    return now
f, p = sys.argv[1], float(sys.argv[2])
jobs = int(sys.argv[3]) if len(sys.argv) > 3 else 16
t = [int(x) for x in open(f)]
S = sum(t)
for mode in ('before', 'after'):
    T = run(t, jobs, p, mode)
    print(f"{f} -j {jobs} {mode}: {S / T:.2f} x ({S / T / jobs:.3f} of linear)")
