/* harness/core/loop.h — the agent-call loop: one unit played by any game (game.h), every agent
 * call made here and nowhere else.
 *
 * What the loop guarantees, for every game:
 * - every entry point (create, begin_game, act, end_game) is called through the watch
 *   (watch.h), and a call past the per-call or per-game limit, an error return, or an illegal
 *   action under illegal_policy "forfeit" is a fault of that seat's agent;
 * - an agent sees copies of its view and legal actions; its action is checked by the game
 *   against the state itself, so writing through the pointers it is given changes nothing;
 * - a faulted seat is replaced by the game's fallback and the unit is played again from its
 *   start, so the other seats get a complete, reproducible game; the faulted seat gets the
 *   game's forfeit result (in a no-replay loop, `taikai serve`'s, whose peers have seen the
 *   games, the fallback takes the seat from the faulted decision to the unit's end instead);
 * - illegal actions are counted per seat (the first described), also when they led to a fault;
 * - with records on, the decisions of the unit's final play are kept for `--records`;
 * - with a logs folder, the game writes the unit's log (plain or gzip-compressed), renamed into
 *   place when it is whole. */
#ifndef TAIKAI_HARNESS_LOOP_H
#define TAIKAI_HARNESS_LOOP_H

#include "game.h"
#include "seat_host.h"
#include "taikai/records.h"
#include "watch.h"

/* The exit status of a worker whose result pipe an agent closed (worker.h's
 * TK_WORKER_EXIT_PIPE). */
enum { TK_LOOP_EXIT_PIPE = 102 };

struct tk_loop;

/* What a remote seat's act returns besides a negative TK_E referee failure. */
enum {
  TK_REMOTE_CHOSEN = 0,  /* the action is written */
  TK_REMOTE_ILLEGAL = 1, /* the peer's choice was no legal action: `what` describes it and the
                          * action written is the one the peer's protocol plays in its place */
};

/* A remote seat: a peer that plays over a connection (`taikai serve`'s UECda clients). It has
 * no create, begin_game or end_game (what the peers must be told, the loop's observer tells
 * them); its act times the peer itself, in wall-clock time, since a peer's CPU time cannot be
 * measured; its decisions are recorded as a plugin's are (the referee's view and legal list,
 * the action the peer chose) when it chose a legal one. A peer that fails is charged by the act itself
 * through tk_loop_fault, after which the loop plays the fallback in its seat. A remote seat
 * needs a no-replay loop: its peer has seen the games. */
typedef struct tk_remote_seat {
  void *ctx;
  /* Seat `seat`'s decision in l->state (l->legal and l->view filled): writes `action`. */
  int (*act)(void *ctx, struct tk_loop *l, int seat, void *action, char *what, size_t cap,
             tk_error *err);
} tk_remote_seat;

/* Hooks that see every decision of a unit, whoever makes it (an agent, a peer, the fallback):
 * how `taikai serve` tells its clients the tables the UECda protocol sends. Each may charge a
 * fault to any seat with tk_loop_fault (a peer that cannot be written to). A hook that returns
 * a negative TK_E code ends the unit with that referee failure. */
typedef struct tk_loop_observer {
  void *ctx;
  /* Before seat `seat`'s decision, l->legal filled. */
  int (*decision)(void *ctx, struct tk_loop *l, int seat, tk_error *err);
  /* After seat `seat`'s action, l->action, was applied. */
  int (*applied)(void *ctx, struct tk_loop *l, int seat, tk_error *err);
  /* Seat `seat` faulted in this unit (*f); called once per fault, in a no-replay loop. */
  void (*faulted)(void *ctx, struct tk_loop *l, int seat, const tk_fault *f);
} tk_loop_observer;

/* One seat's player as the loop holds it, of three kinds: a plugin called in the worker's
 * process (the default, the fastest); a plugin called (isolated) in a process of its own, a
 * seat host (seat_host.h) forked when a unit first needs it; or a remote seat (`remote`).
 * Every call goes through the loop's seat functions, and a plugin's through the watch, so the
 * limits, faults and records are the same whatever the kind. */
typedef struct tk_seat_agent {
  const tk_agent_descriptor *desc; /* borrowed from the loaded plugin */
  tk_agent_instance *inst;         /* owned; created when a unit first needs it (isolated: a
                                    * non-NULL marker while its host runs) */
  int index;                       /* position in the spec's agents */
  const char *label;
  const char *params;              /* the JSON text create() gets */
  int isolated;                    /* 1: called in its seat host */
  tk_seat_host host;               /* isolated: its host process */
  const tk_remote_seat *remote;    /* non-NULL: a remote seat (desc, params unused) */
} tk_seat_agent;

typedef struct tk_loop {
  const tk_game *game;
  const tk_run *run;         /* for isolated agents' hosts; may be NULL when none is isolated */
  void *shared;              /* the worker's shared memory (the pool's watches), unmapped in a
                              * seat host; NULL: none */
  size_t shared_len;
  const void *rules;
  uint64_t seed;             /* tournament seed */
  int illegal_policy;        /* 0 forfeit, 1 substitute the fallback (spec.h) */
  int no_replay;             /* 1: a fault puts the fallback in the seat from that decision to
                              * the unit's end, and the unit is not played again (its peers
                              * have seen it); 0: the unit is played again from its start */
  const tk_loop_observer *observer; /* may be NULL */
  tk_watch *watch;           /* may be NULL */
  tk_seat_agent *agents;     /* borrowed, indexed by spec index */
  const char *logs_dir;      /* `--logs`: write each unit's game log here; NULL: none */
  int logs_gzip;             /* 1: the logs gzip-compressed (unit-NNNNNNNN.jsonl.gz) */
  int records;               /* 1: keep the decisions (tk_loop.rb) */
  int pipe_fd;               /* the worker's result pipe, checked after every unit: an agent
                              * that closed it ends the worker (-1: not checked) */
  tk_records_builder rb;     /* the decisions of the last unit played */
  struct tk_loop_try *cur;   /* the try in play (NULL between units) */
  /* scratch, owned */
  void *state, *view, *legal, *action, *agent_view, *agent_legal, *info, *result;
} tk_loop;

/* Sets up a loop for `game` (allocating its scratch). Returns 0 or TK_ENOMEM. */
int tk_loop_init(tk_loop *l, const tk_game *game);
void tk_loop_free(tk_loop *l);

/* Creates agent `index`'s instance if it has none (through the watch, as seat `seat`).
 * Returns 1 if there is one, else 0 with the fault in *f. */
int tk_loop_create(tk_loop *l, int index, int seat, tk_fault *f);

/* Ends every agent instance the loop holds (destroy, through the watch; an isolated agent's
 * host is asked to destroy it and exit). */
void tk_loop_destroy_agents(tk_loop *l, int nagents);

/* Plays unit `unit` on `wall` with `seating` (nseats agent indices). The seats of `fallback`
 * are played by the fallback from the start (in a no-replay loop: seats lost earlier): their agents faulted in an earlier try that the
 * loop could not see (a crash or a kill, found by the pool), with those faults in `faults`
 * (indexed by seat; may be NULL when fallback is 0). Fills `rec` (forfeit applied) and, with
 * records on, l->rb.packed. Returns 0, or a negative TK_E code for a referee failure (not an
 * agent's), with the reason in `err`. */
int tk_loop_play(tk_loop *l, uint64_t unit, uint64_t wall, const int *seating,
                 unsigned fallback, const tk_fault *faults, tk_unit_rec *rec, tk_error *err);

/* In a no-replay loop, from a remote seat's act or an observer's hook: seat `seat` faults
 * now (*f, its `decision` as the caller describes it); the fallback plays it to the unit's end.
 * A seat already the fallback's keeps its first fault. */
void tk_loop_fault(struct tk_loop *l, int seat, const tk_fault *f);

/* The seats the fallback plays now in the unit in play (0 between units). */
unsigned tk_loop_fallback(const struct tk_loop *l);

/* A unit's game log (`--logs`): written to a .tmp beside its name and renamed when the unit is
 * whole, so a log under its final name is complete (a run stopped mid-unit leaves only a .tmp,
 * and the unit is played again on resume). Compressed, each try writes to memory and the last
 * one is deflated into the .tmp. Shared by the loop and `taikai serve`. */
typedef struct tk_unit_log {
  char path[4200], tmp[4208], other[4200]; /* its name, the .tmp, the name in the other form */
  int gzip;
  FILE *f;        /* the try's stream (NULL between tries) */
  char *mem;      /* gzip: the try's text */
  size_t memlen;
} tk_unit_log;

/* Opens a try of unit `unit`'s log in `dir` (lg zeroed before the first try): lg->f is the
 * stream to hand the game. Returns 0 or TK_EIO. */
int tk_unit_log_try(tk_unit_log *lg, const char *dir, int gzip, uint64_t unit, tk_error *err);
/* Closes the try's stream. Returns 0 or TK_EIO (a write failed). */
int tk_unit_log_close(tk_unit_log *lg, tk_error *err);
/* The unit is whole: compresses the last try if gzip, renames the .tmp into place and removes
 * the unit's log in the other form. Returns 0 or TK_EIO. */
int tk_unit_log_commit(tk_unit_log *lg, tk_error *err);
/* Releases what the log holds (an open try's stream, the memory); lg is zeroed. */
void tk_unit_log_drop(tk_unit_log *lg);

/* Packs the decisions `rb` holds with the outcome of `rec` (its agents, fault kinds and result
 * fields) into rb->packed: one unit's block of records.tkr. Returns 0 or TK_ENOMEM. */
int tk_records_pack_unit(tk_records_builder *rb, const tk_game *g, const tk_unit_rec *rec,
                         tk_error *err);

#endif
