#!/usr/bin/env python3
"""A UECda client (protocol 20070) written from ../shared/specs/daifugo.md alone, standard
library only, behaving as the contest's reference client does: one read per message (a recv
that waits for the whole message, MSG_WAITALL), the profile first, and an exit when a game-start
table does not mark the exchange phase ([5][0] == 1: "not card-change turn?").

It plays the lowest single that the rules allow (the joker alone only when it is the last card
to lead), passes otherwise, and gives its lowest cards in the exchange. It checks the server
against the rules as it plays: a legal single must be answered 9, a pass on a table with cards
8, a pass on an empty table 9; the messages must come in the spec's order and the connection
must close right after the final 2.

Usage: uecda_client.py [--host H] [--port P] [--name NAME] [--games N]
Exit status 0 when the whole run was played as the spec says; 1 with the first discrepancy on
stderr; 2 bad usage; 3 "not card-change turn?" (as the reference client exits)."""

import argparse
import socket
import struct
import sys

ROWS, COLS = 8, 15
TABLE = ROWS * COLS * 4


def fail(msg):
    sys.stderr.write("uecda_client: %s\n" % msg)
    sys.exit(1)


def recv_exact(sock, n, what):
    data = sock.recv(n, socket.MSG_WAITALL)  # one read per message
    if len(data) != n:
        fail("%s: got %d of %d bytes" % (what, len(data), n))
    return data


def recv_table(sock, what):
    v = struct.unpack("!120i", recv_exact(sock, TABLE, what))
    return [list(v[r * COLS:(r + 1) * COLS]) for r in range(ROWS)]


def recv_int(sock, what):
    return struct.unpack("!i", recv_exact(sock, 4, what))[0]


def send_table(sock, t):
    sock.sendall(struct.pack("!120i", *[x for row in t for x in row]))


def empty():
    return [[0] * COLS for _ in range(ROWS)]


def cards_of(t):
    """(row, col) of every real card (value 1 in rows 0-3, columns 1-13) and whether a joker
    (a 2 in rows 0-4) is there."""
    real = [(r, c) for r in range(4) for c in range(1, 14) if t[r][c] == 1]
    joker = any(t[r][c] == 2 for r in range(5) for c in range(COLS))
    return real, joker


def choose(hand, field, new_table, rev, lock):
    """The submission table: the lowest legal single, or a pass (all zeros)."""
    real, joker = hand
    sub = empty()
    order = sorted(real, key=lambda rc: (-rc[1] if rev else rc[1], rc[0]))
    if new_table:
        if order:
            r, c = order[0]
            sub[r][c] = 1
        elif joker:
            sub[4][1] = 2
        return sub, True
    f_real, f_joker = field
    if len(f_real) + (1 if f_joker else 0) != 1:
        return sub, False  # a group or a sequence: pass
    if f_joker and not f_real:  # a single joker: only the spade 3 answers it
        if (0, 1) in real:
            sub[0][1] = 1
            return sub, True
        return sub, False
    fr, fc = f_real[0]
    for r, c in order:
        stronger = c < fc if rev else c > fc
        if stronger and (not lock or r == fr):
            sub[r][c] = 1
            return sub, True
    return sub, False


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=42485)
    ap.add_argument("--name", default="pyclient")
    ap.add_argument("--games", type=int, default=0, help="games the run must have (0: any)")
    a = ap.parse_args()
    sock = socket.create_connection((a.host, a.port))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    prof = empty()
    prof[0][0] = 20070
    for i, ch in enumerate(a.name[:9]):
        prof[1][i] = ord(ch)
    send_table(sock, prof)
    me = recv_int(sock, "player id")
    if not 0 <= me <= 4:
        fail("player id %d" % me)
    games = plays = passes = answers8 = 0
    field = ([], False)
    while True:
        start = recv_table(sock, "game-start table")
        if start[5][0] != 1:
            sys.stderr.write("uecda_client: not card-change turn?\n")
            sys.exit(3)
        if start[5][3] != 6:
            fail("game %d: game-start table [5][3] = %d, not 6" % (games + 1, start[5][3]))
        if sorted(start[6][10:15]) != [0, 1, 2, 3, 4]:
            fail("game %d: seats %s" % (games + 1, start[6][10:15]))
        if sum(start[6][0:5]) != 53:
            fail("game %d: counts %s do not sum to 53" % (games + 1, start[6][0:5]))
        give = start[5][1]
        if give:
            real, _ = cards_of(start)
            sub = empty()
            for r, c in sorted(real, key=lambda rc: (rc[1], rc[0]))[:give]:
                sub[r][c] = 1
            send_table(sock, sub)
        field = ([], False)
        while True:
            hand = recv_table(sock, "hand table")
            if hand[5][0] != 0:
                fail("game %d: a hand table marks the exchange phase" % (games + 1))
            mover = hand[5][3]
            if hand[5][2] != (1 if mover == me else 0):
                fail("game %d: [5][2] = %d, mover %d, me %d" % (games + 1, hand[5][2], mover, me))
            new_table = hand[5][4] == 1
            if new_table:
                field = ([], False)
            if mover == me:
                sub, play = choose(cards_of(hand), field, new_table, hand[5][6], hand[5][7])
                send_table(sock, sub)
                ans = recv_int(sock, "answer")
                want = 9 if play or new_table else 8
                if ans != want:
                    fail("game %d: answered %d to %s (expected %d)" %
                         (games + 1, ans, "a play" if play else "a pass", want))
                plays += play
                passes += not play
                answers8 += ans == 8
            f = recv_table(sock, "field table")
            if f[5][3] != mover:
                fail("game %d: field table [5][3] = %d, mover was %d" % (games + 1, f[5][3], mover))
            field = cards_of(f)
            end = recv_int(sock, "end-of-turn int")
            if end == 0:
                continue
            if end not in (1, 2):
                fail("game %d: end-of-turn int %d" % (games + 1, end))
            games += 1
            break
        if end == 2:
            break
    rest = sock.recv(1)
    if rest:
        fail("bytes after the final 2")
    sock.close()
    if a.games and games != a.games:
        fail("%d games played, expected %d" % (games, a.games))
    print("player %d: %d games, %d plays, %d passes (%d answered 8)" %
          (me, games, plays, passes, answers8))


if __name__ == "__main__":
    main()
