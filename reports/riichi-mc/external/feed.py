#!/usr/bin/env python3
"""feed.py STREAM -- CMD...: sends STREAM's lines one at a time to CMD, writes each answer to
stdout and, on stderr at the end, the CPU seconds CMD spent per answered line (max, mean, count
of lines that called akochan, i.e. took over 5 ms)."""
import os, subprocess, sys
stream = sys.argv[1]; cmd = sys.argv[sys.argv.index("--") + 1:]
p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
tick = os.sysconf("SC_CLK_TCK")
def cpu():
    f = open(f"/proc/{p.pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / tick
times = []
for line in open(stream):
    c0 = cpu(); p.stdin.write(line); p.stdin.flush()
    sys.stdout.write(p.stdout.readline()); times.append(cpu() - c0)
p.stdin.close(); p.wait()
big = [t for t in times if t > 0.005]
print(f"lines {len(times)}, deciding {len(big)}, cpu max {max(times):.2f} s, mean per deciding "
      f"{sum(big)/max(1,len(big)):.2f} s, total {sum(times):.1f} s", file=sys.stderr)
