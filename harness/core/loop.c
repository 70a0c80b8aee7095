/* harness/core/loop.c — the agent-call loop (see loop.h). One try plays the unit from its
 * start; a fault found in a try puts the fallback in that seat and starts again, so a unit takes
 * at most nseats + 1 tries (a no-replay loop: one try, the fallback taking the seat where it
 * faulted). Results depend only on the unit and on what the agents did. */
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <zlib.h>

#include "loop.h"

enum { NAME_MAX_LEN = 96 };

static void leave(tk_loop *l) { tk_watch_leave(l->watch); }

/* After a unit: its agents must not have closed the worker's result pipe (the parent, seeing
 * the pipe end, charges the call in progress; this catches the case where another process,
 * one an agent forked, holds the pipe open). A system call per unit, not per agent call: one
 * per call cost a quarter of a one-player tournament's speed. */
static void check_pipe(const tk_loop *l) {
  if (l->pipe_fd >= 0 && fcntl(l->pipe_fd, F_GETFD) < 0) _exit(TK_LOOP_EXIT_PIPE);
}

int tk_loop_init(tk_loop *l, const tk_game *g) {
  memset(l, 0, sizeof *l);
  l->game = g;
  l->pipe_fd = -1;
  l->state = malloc(g->state_size);
  l->view = malloc(g->view_size);
  l->agent_view = malloc(g->view_size);
  l->legal = malloc(g->legal_size);
  l->agent_legal = malloc(g->legal_size);
  l->action = malloc(g->action_size);
  l->info = malloc(g->info_size);
  l->result = malloc(g->result_size);
  tk_records_builder_init(&l->rb, g->view_size, g->legal_size, g->action_size);
  if (!l->state || !l->view || !l->agent_view || !l->legal || !l->agent_legal || !l->action ||
      !l->info || !l->result) {
    tk_loop_free(l);
    return TK_ENOMEM;
  }
  return 0;
}

void tk_loop_free(tk_loop *l) {
  free(l->state);
  free(l->view);
  free(l->agent_view);
  free(l->legal);
  free(l->agent_legal);
  free(l->action);
  free(l->info);
  free(l->result);
  tk_records_builder_free(&l->rb);
  l->state = l->view = l->agent_view = l->legal = l->agent_legal = l->action = NULL;
  l->info = l->result = NULL;
}

int tk_loop_create(tk_loop *l, int index, int seat, tk_fault *f) {
  tk_seat_agent *a = &l->agents[index];
  if (a->inst || a->remote) return 1;
  tk_error e;
  tk_error_clear(&e);
  memset(f, 0, sizeof *f);
  if (a->isolated) { /* its host process is forked and creates it */
    a->host.unmap = l->shared;
    a->host.unmap_len = l->shared_len;
    tk_watch_call(l->watch, seat, index, TK_ENTRY_CREATE);
    int rc = tk_seat_host_start(&a->host, l->run, index, seat, f, &e);
    leave(l);
    if (rc == 1 && tk_watch_over(l->watch, seat, TK_ENTRY_CREATE, f)) {
      tk_seat_host_kill(&a->host);
      return 0;
    }
    if (rc < 0) {
      memset(f, 0, sizeof *f);
      f->kind = TK_FAULT_ERROR;
      f->entry = TK_ENTRY_CREATE;
      f->seat = seat;
      snprintf(f->detail, sizeof f->detail, "its process could not be started: %.100s", e.msg);
      return 0;
    }
    if (rc == 0) return 0;
    a->inst = (tk_agent_instance *)&a->host; /* a marker: the instance lives in the host */
    return 1;
  }
  tk_watch_call(l->watch, seat, index, TK_ENTRY_CREATE);
  a->inst = a->desc->create(a->params, tk_game_seed(l->seed, UINT64_MAX, -1, index), &e);
  leave(l);
  if (tk_watch_over(l->watch, seat, TK_ENTRY_CREATE, f)) {
    if (a->inst) a->desc->destroy(a->inst);
    a->inst = NULL;
    return 0;
  }
  if (!a->inst) {
    f->kind = TK_FAULT_ERROR;
    f->entry = TK_ENTRY_CREATE;
    f->seat = seat;
    snprintf(f->detail, sizeof f->detail, "returned NULL: %.130s",
             e.msg[0] ? e.msg : "(no reason)");
    return 0;
  }
  return 1;
}

void tk_loop_destroy_agents(tk_loop *l, int nagents) {
  for (int i = 0; i < nagents; i++) {
    tk_seat_agent *a = &l->agents[i];
    if (!a->inst && !a->host.watch) continue;
    tk_watch_call(l->watch, -1, i, TK_ENTRY_DESTROY);
    if (a->isolated) tk_seat_host_stop(&a->host, l->run);
    else a->desc->destroy(a->inst);
    leave(l);
    if (a->isolated) tk_seat_host_free(&a->host);
    a->inst = NULL;
  }
}

/* A call of an isolated agent's entry point in its host, inside the worker's watch (opened by
 * the caller): 1 with *ret its return value (and, for an error, the agent's account in *msg);
 * 0 when the call faulted (*f; the host is gone, so the next unit starts another); or a
 * referee failure. */
static int host_call(tk_loop *l, tk_seat_agent *a, int seat, int entry, const void *x,
                     const void *y, void *action, int *ret, tk_fault *f, tk_error *msg,
                     tk_error *err) {
  a->host.seat = seat;
  int rc = tk_seat_host_call(&a->host, l->run, entry, x, y, action, ret, f, err);
  if (rc == 1) { /* an answer and nothing more: bytes beyond it were written by the agent */
    struct pollfd p = {.fd = a->host.rep_fd, .events = POLLIN};
    if (poll(&p, 1, 0) > 0 && (p.revents & POLLIN)) {
      memset(f, 0, sizeof *f);
      f->kind = TK_FAULT_ERROR;
      f->entry = entry;
      snprintf(f->detail, sizeof f->detail, "wrote more than its answer on its pipe");
      tk_seat_host_kill(&a->host);
      rc = 0;
    }
  }
  if (rc == 1 && *ret < 0) {
    tk_error_clear(msg);
    snprintf(msg->msg, sizeof msg->msg, "%s", a->host.last_error);
  }
  if (rc == 0) {
    f->seat = seat;
    a->inst = NULL;
    tk_seat_host_free(&a->host);
  }
  return rc;
}

/* Per-seat bookkeeping of one try. */
typedef struct tk_loop_try {
  int illegal[TK_MAX_SEATS];
  char illegal_first[TK_MAX_SEATS][192];
  tk_fault fault;   /* the fault that ended the try (kind 0: none; a replay loop only) */
  unsigned fb;      /* the seats the fallback plays now */
  tk_fault faults[TK_MAX_SEATS]; /* a no-replay loop: the faults of this try, by seat */
} try_state;

static void error_fault(tk_fault *f, int seat, int entry, int rc) {
  memset(f, 0, sizeof *f);
  f->kind = TK_FAULT_ERROR;
  f->entry = entry;
  f->seat = seat;
  snprintf(f->detail, sizeof f->detail, "returned %d (%s)", rc, tk_strerror(rc));
}

/* Seat s faults in a no-replay try: the fallback plays it from here. */
static void charge(tk_loop *l, try_state *t, int s, const tk_fault *f) {
  if (s < 0 || s >= l->game->nseats || (t->fb >> s & 1)) return;
  t->faults[s] = *f;
  t->faults[s].seat = s;
  t->fb |= 1u << s;
  if (l->observer && l->observer->faulted)
    l->observer->faulted(l->observer->ctx, l, s, &t->faults[s]);
}

void tk_loop_fault(tk_loop *l, int seat, const tk_fault *f) {
  if (l->cur && l->no_replay) charge(l, l->cur, seat, f);
}

unsigned tk_loop_fallback(const tk_loop *l) { return l->cur ? l->cur->fb : 0; }

/* The fault in t->fault, of seat s, ends the try (1: a replay loop plays the unit again), or
 * (0: a no-replay loop) puts the fallback in seat s and play goes on. */
static int ends_try(tk_loop *l, try_state *t, int s) {
  t->fault.seat = s;
  if (!l->no_replay) return 1;
  tk_fault f = t->fault;
  memset(&t->fault, 0, sizeof t->fault);
  charge(l, t, s, &f);
  return 0;
}

/* Asks agent `a` why its last call failed (its optional last_error), into `msg`; called inside
 * the failed call's watch, so the same limits hold. */
static void last_error(const tk_seat_agent *a, tk_error *msg) {
  tk_error_clear(msg);
  if (a->desc->last_error) a->desc->last_error(a->inst, msg);
  msg->msg[sizeof msg->msg - 1] = '\0';
}

/* The head and the game's part of seat s's info struct. */
static void fill_info(tk_loop *l, uint64_t wall, int s, int agent) {
  const tk_game *g = l->game;
  memset(l->info, 0, g->info_size);
  g->info(l->state, s, l->info);
  tk_game_head *h = l->info;
  h->abi_version = TK_AGENT_ABI_VERSION;
  h->struct_size = (uint32_t)g->info_size;
  h->seed = tk_game_seed(l->seed, wall, s, agent);
  h->wall = wall;
  h->seat = s;
  h->nseats = g->nseats;
}

/* The fallback's action for seat s, applied. */
static int play_fallback(tk_loop *l, int s, tk_error *err) {
  l->game->fallback(l->state, s, l->legal, l->action);
  return l->game->apply(l->state, s, l->action, err);
}

/* Seat s's decision (l->legal filled), made and applied: by the fallback if the seat is the
 * fallback's, else by its agent or peer. Returns 0 (with t->fault set when the fault ends the
 * try) or a referee failure. */
static int decide(tk_loop *l, try_state *t, int s, tk_seat_agent *a, tk_error *err) {
  const tk_game *g = l->game;
  if (t->fb >> s & 1) return play_fallback(l, s, err);
  g->view(l->state, s, l->view);
  char what[96];
  int substituted = 0; /* a peer's illegal choice, replaced by its protocol's action */
  if (a->remote) {
    memset(l->action, 0xff, g->action_size);
    what[0] = '\0';
    int rr = a->remote->act(a->remote->ctx, l, s, l->action, what, sizeof what, err);
    if (rr < 0) return rr;
    if (t->fb >> s & 1) return play_fallback(l, s, err); /* it faulted (tk_loop_fault) */
    substituted = rr == TK_REMOTE_ILLEGAL;
  } else {
    memcpy(l->agent_view, l->view, g->view_size);
    memcpy(l->agent_legal, l->legal, g->legal_size);
    memset(l->action, 0xff, g->action_size); /* an action the agent does not write is illegal */
    tk_watch *w = l->watch;
    tk_error msg; /* the agent's account of its failed call (last_error) */
    tk_error_clear(&msg);
    tk_watch_decision(w, l->view, g->view_size);
    tk_watch_call(w, s, a->index, TK_ENTRY_ACT);
    int r2 = 0, faulted = 0;
    if (a->isolated) {
      int hc = host_call(l, a, s, TK_ENTRY_ACT, l->agent_view, l->agent_legal, l->action, &r2,
                         &t->fault, &msg, err);
      leave(l);
      if (hc < 0) return hc;
      faulted = hc == 0;
    } else {
      r2 = a->desc->act(a->inst, l->agent_view, l->agent_legal, l->action);
      if (r2 < 0) last_error(a, &msg);
      leave(l);
    }
    if (faulted || tk_watch_over(w, s, TK_ENTRY_ACT, &t->fault) || r2 < 0) {
      if (!t->fault.kind) {
        error_fault(&t->fault, s, TK_ENTRY_ACT, r2);
        tk_fault_set_message(&t->fault, msg.msg);
      }
      g->describe(l->view, t->fault.decision, sizeof t->fault.decision);
      return ends_try(l, t, s) ? 0 : play_fallback(l, s, err);
    }
  }
  if (!substituted) {
    tk_error ae;
    tk_error_clear(&ae);
    if (!g->apply(l->state, s, l->action, &ae)) {
      if (l->records) {
        if (g->canonical) g->canonical(l->legal, l->action);
        if (tk_records_builder_add(&l->rb, (uint32_t)s, (uint32_t)a->index, l->view, l->legal,
                                   l->action))
          return tk_error_set(err, TK_ENOMEM, -1, "out of memory for the records");
      }
      return 0;
    }
    g->describe_action(l->action, what, sizeof what);
  }
  /* never applied: counted; the fallback's (or the peer protocol's) action, or a forfeit */
  char where[192];
  g->describe(l->view, where, sizeof where);
  if (!t->illegal[s]++)
    snprintf(t->illegal_first[s], sizeof t->illegal_first[s], "%.100s: %.78s, not legal", where,
             what);
  if (l->illegal_policy == 1) {
    if (!substituted) g->fallback(l->state, s, l->legal, l->action);
    return g->apply(l->state, s, l->action, err);
  }
  memset(&t->fault, 0, sizeof t->fault);
  t->fault.kind = TK_FAULT_ILLEGAL;
  t->fault.entry = TK_ENTRY_ACT;
  snprintf(t->fault.detail, sizeof t->fault.detail, "%.140s, not legal", what);
  snprintf(t->fault.decision, sizeof t->fault.decision, "%s", where);
  return ends_try(l, t, s) ? 0 : play_fallback(l, s, err);
}

/* One try of the unit with the seats of `fallback` played by the fallback. Returns 0 (with
 * t->fault.kind set if an agent's fault ends the try, its seat in t->fault.seat) or a referee
 * failure. */
static int try_unit(tk_loop *l, uint64_t unit, uint64_t wall, const int *seating,
                    unsigned fallback, FILE *log, tk_unit_rec *rec, try_state *t,
                    tk_error *err) {
  const tk_game *g = l->game;
  int n = g->nseats;
  tk_watch *w = l->watch;
  const tk_loop_observer *ob = l->observer;
  memset(t, 0, sizeof *t);
  t->fb = fallback;
  l->cur = t;
  tk_watch_unit(w, unit);
  if (l->records) tk_records_builder_reset(&l->rb);
  for (int s = 0; s < n; s++)
    if (!(t->fb >> s & 1) && !tk_loop_create(l, seating[s], s, &t->fault) && ends_try(l, t, s))
      return 0;

  char names[TK_MAX_SEATS][NAME_MAX_LEN];
  const char *np[TK_MAX_SEATS];
  for (int s = 0; s < n; s++) {
    snprintf(names[s], sizeof names[s], "%s%s", l->agents[seating[s]].label,
             fallback >> s & 1 ? " (fallback)" : "");
    np[s] = names[s];
  }
  tk_error msg; /* an agent's account of its failed call (last_error) */
  tk_error_clear(&msg);
  tk_unit_start us = {.rules = l->rules, .seed = l->seed, .wall = wall, .nseats = n,
                      .names = np, .log = log};
  int rc = g->start(l->state, &us, err);
  if (rc) return rc;

  for (int s = 0; s < n; s++) { /* an isolated host's own clocks start again too */
    tk_seat_agent *a = &l->agents[seating[s]];
    if (!(t->fb >> s & 1) && a->isolated && a->inst) tk_seat_host_unit(&a->host, unit);
  }
  for (int s = 0; s < n; s++) {
    tk_seat_agent *a = &l->agents[seating[s]];
    if ((t->fb >> s & 1) || a->remote || !a->desc->begin_game) continue;
    fill_info(l, wall, s, a->index);
    tk_watch_call(w, s, a->index, TK_ENTRY_BEGIN);
    int r2 = 0;
    if (a->isolated) {
      int hc = host_call(l, a, s, TK_ENTRY_BEGIN, l->info, NULL, NULL, &r2, &t->fault, &msg,
                         err);
      leave(l);
      if (hc < 0) return hc;
      if (hc == 0) {
        if (ends_try(l, t, s)) return 0;
        continue;
      }
    } else {
      r2 = a->desc->begin_game(a->inst, l->info);
      if (r2 < 0) last_error(a, &msg);
      leave(l);
    }
    if (tk_watch_over(w, s, TK_ENTRY_BEGIN, &t->fault)) {
      if (ends_try(l, t, s)) return 0;
      continue;
    }
    if (r2 < 0) {
      error_fault(&t->fault, s, TK_ENTRY_BEGIN, r2);
      tk_fault_set_message(&t->fault, msg.msg);
      if (ends_try(l, t, s)) return 0;
    }
  }

  for (;;) {
    int s = g->to_act(l->state, err);
    if (s == -1) break;
    if (s < 0) return s;
    if (s >= n) return tk_error_set(err, TK_ESTATE, -1, "%s: seat %d to act", g->name, s);
    g->legal(l->state, s, l->legal);
    if (ob && ob->decision && (rc = ob->decision(ob->ctx, l, s, err))) return rc;
    if ((rc = decide(l, t, s, &l->agents[seating[s]], err))) return rc;
    if (t->fault.kind) return 0;
    if (ob && ob->applied && (rc = ob->applied(ob->ctx, l, s, err))) return rc;
  }

  for (int s = 0; s < n; s++) memset(rec->seat[s].f, 0, sizeof rec->seat[s].f);
  for (int s = 0; s < n; s++) rec->seat[s].extra[0] = '\0';
  g->fields(l->state, rec);
  g->result(l->state, l->result);
  for (int s = 0; s < n; s++) {
    tk_seat_agent *a = &l->agents[seating[s]];
    if ((t->fb >> s & 1) || a->remote || !a->desc->end_game) continue;
    tk_watch_call(w, s, a->index, TK_ENTRY_END);
    if (a->isolated) {
      int r2, hc = host_call(l, a, s, TK_ENTRY_END, l->result, NULL, NULL, &r2, &t->fault, &msg,
                             err);
      leave(l);
      if (hc < 0) return hc;
      if (hc == 0) {
        if (ends_try(l, t, s)) return 0;
        continue;
      }
    } else {
      a->desc->end_game(a->inst, l->result);
      leave(l);
    }
    if (tk_watch_over(w, s, TK_ENTRY_END, &t->fault) && ends_try(l, t, s)) return 0;
  }
  return 0;
}
/* ------------------------------------------------------------------ a unit's log */

int tk_unit_log_try(tk_unit_log *lg, const char *dir, int gzip, uint64_t unit, tk_error *err) {
  if (!lg->path[0]) {
    snprintf(lg->path, sizeof lg->path, "%s/unit-%08llu.jsonl%s", dir, (unsigned long long)unit,
             gzip ? ".gz" : "");
    snprintf(lg->tmp, sizeof lg->tmp, "%s.tmp", lg->path);
    snprintf(lg->other, sizeof lg->other, "%s/unit-%08llu.jsonl%s", dir,
             (unsigned long long)unit, gzip ? "" : ".gz");
    lg->gzip = gzip;
  }
  free(lg->mem);
  lg->mem = NULL;
  lg->memlen = 0;
  lg->f = gzip ? open_memstream(&lg->mem, &lg->memlen) : fopen(lg->tmp, "w");
  if (!lg->f) return tk_error_set(err, TK_EIO, -1, "cannot write %s", lg->tmp);
  return 0;
}

int tk_unit_log_close(tk_unit_log *lg, tk_error *err) {
  if (!lg->f) return 0;
  int bad = ferror(lg->f) != 0;
  if (fclose(lg->f)) bad = 1;
  lg->f = NULL;
  return bad ? tk_error_set(err, TK_EIO, -1, "cannot write %s", lg->tmp) : 0;
}

int tk_unit_log_commit(tk_unit_log *lg, tk_error *err) {
  if (lg->gzip) {
    gzFile z = gzopen(lg->tmp, "wb6");
    int bad = !z || (lg->memlen && gzwrite(z, lg->mem, (unsigned)lg->memlen) != (int)lg->memlen);
    if (z && gzclose(z) != Z_OK) bad = 1;
    free(lg->mem);
    lg->mem = NULL;
    if (bad) return tk_error_set(err, TK_EIO, -1, "cannot write %s", lg->tmp);
  }
  if (rename(lg->tmp, lg->path)) return tk_error_set(err, TK_EIO, -1, "cannot rename %s", lg->tmp);
  unlink(lg->other); /* the unit's log from a run in the other form, if any */
  return 0;
}

void tk_unit_log_drop(tk_unit_log *lg) {
  if (lg->f) fclose(lg->f);
  free(lg->mem);
  memset(lg, 0, sizeof *lg);
}

int tk_records_pack_unit(tk_records_builder *rb, const tk_game *g, const tk_unit_rec *rec,
                         tk_error *err) {
  int n = g->nseats;
  int32_t agent[TK_MAX_SEATS], kind[TK_MAX_SEATS];
  int64_t field[TK_MAX_SEATS][TK_RECORDS_MAX_FIELDS];
  for (int s = 0; s < n; s++) {
    agent[s] = rec->seat[s].agent;
    kind[s] = rec->seat[s].fault.kind;
    memcpy(field[s], rec->seat[s].f, sizeof field[s]);
  }
  if (tk_records_builder_pack(rb, rec->unit, rec->wall, (uint32_t)n, (uint32_t)g->nfields, agent,
                              kind, (const int64_t(*)[TK_RECORDS_MAX_FIELDS])field))
    return tk_error_set(err, TK_ENOMEM, -1, "out of memory for the records");
  return 0;
}

/* ------------------------------------------------------------------ a unit */

int tk_loop_play(tk_loop *l, uint64_t unit, uint64_t wall, const int *seating,
                 unsigned fallback, const tk_fault *faults, tk_unit_rec *rec, tk_error *err) {
  const tk_game *g = l->game;
  int n = g->nseats;
  memset(rec, 0, tk_unit_rec_size(n));
  rec->unit = unit;
  rec->wall = wall;
  rec->nseats = n;
  tk_fault fault[TK_MAX_SEATS];
  int illegal[TK_MAX_SEATS] = {0};
  char illegal_first[TK_MAX_SEATS][192];
  memset(fault, 0, sizeof fault);
  memset(illegal_first, 0, sizeof illegal_first);
  for (int s = 0; s < n; s++) {
    rec->seat[s].agent = seating[s];
    if ((fallback >> s & 1) && faults) {
      fault[s] = faults[s];
      fault[s].seat = s;
    }
  }
  for (int s = 0; s < n; s++)
    if (l->agents[seating[s]].remote && !l->no_replay)
      return tk_error_set(err, TK_EINVAL, -1, "seat %d: a remote seat needs a no-replay loop", s);
  tk_unit_log lg;
  memset(&lg, 0, sizeof lg);
  try_state t;
  unsigned before = fallback; /* the seats lost before the unit */
  for (;;) {
    if (l->logs_dir && tk_unit_log_try(&lg, l->logs_dir, l->logs_gzip, unit, err)) {
      tk_unit_log_drop(&lg);
      return TK_EIO;
    }
    int rc = try_unit(l, unit, wall, seating, fallback, lg.f, rec, &t, err);
    l->cur = NULL;
    int lrc = tk_unit_log_close(&lg, rc ? NULL : err);
    if (!rc) rc = lrc;
    if (rc) {
      tk_unit_log_drop(&lg);
      return rc;
    }
    if (!t.fault.kind) break;
    int s = t.fault.seat;
    if (s < 0 || s >= n || (fallback >> s & 1)) {
      tk_unit_log_drop(&lg);
      return tk_error_set(err, TK_ESTATE, -1, "%s: a fault in seat %d, played by the fallback",
                          g->name, s);
    }
    fault[s] = t.fault;
    tk_seat_agent *fa = &l->agents[seating[s]];
    if (fa->isolated && fa->inst) { /* a faulted host starts afresh, whatever it holds */
      tk_seat_host_kill(&fa->host);
      tk_seat_host_free(&fa->host);
      fa->inst = NULL;
    }
    illegal[s] = t.illegal[s]; /* the try it faulted in: its illegal actions count */
    memcpy(illegal_first[s], t.illegal_first[s], sizeof illegal_first[s]);
    fallback |= 1u << s; /* play the unit again from its start, the fallback in seat s */
  }
  if (l->no_replay) { /* the one try's faults; a faulted host starts afresh next unit */
    for (int s = 0; s < n; s++) {
      if (!(t.fb >> s & 1) || (before >> s & 1)) continue;
      fault[s] = t.faults[s];
      illegal[s] = t.illegal[s];
      memcpy(illegal_first[s], t.illegal_first[s], sizeof illegal_first[s]);
      tk_seat_agent *fa = &l->agents[seating[s]];
      if (fa->isolated && fa->inst) {
        tk_seat_host_kill(&fa->host);
        tk_seat_host_free(&fa->host);
        fa->inst = NULL;
      }
    }
    fallback = t.fb;
  }
  for (int s = 0; s < n; s++) {
    tk_seat_rec *x = &rec->seat[s];
    int fb = fallback >> s & 1;
    x->illegal = fb ? illegal[s] : t.illegal[s];
    memcpy(x->illegal_first, fb ? illegal_first[s] : t.illegal_first[s], sizeof x->illegal_first);
    if (fb) x->fault = fault[s];
  }
  check_pipe(l);
  if (fallback) g->forfeit(l->rules, fallback, rec);
  int rc = l->logs_dir ? tk_unit_log_commit(&lg, err) : 0;
  tk_unit_log_drop(&lg);
  if (rc) return rc;
  if (l->records) return tk_records_pack_unit(&l->rb, g, rec, err);
  return 0;
}
