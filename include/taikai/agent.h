/* taikai/agent.h — the plugin ABI: how the referee finds, creates and drives an agent.
 *
 * A plugin is a shared object exporting one symbol, `taikai_agent_entry`, a function returning
 * a const tk_agent_descriptor that lives as long as the object is loaded. The lifecycle is the
 * same for every game; the view, legal-action, action, game-info and result types are the
 * game's own (e.g. taikai/solo.h). The referee reads the descriptor's fields only after
 * checking `abi_version` and `struct_size`; fields are only ever appended, each marked with the
 * ABI version that added it. No Jansson or GSL object and no heap memory crosses the boundary:
 * parameters travel as JSON text, errors in a caller-owned tk_error.
 *
 * Reproducibility contract: an agent's choices in a game must depend only on its parameters,
 * the `seed` found at the start of the game's info struct (passed to begin_game) and the
 * game's events. The referee creates one instance per agent per worker process and reuses
 * it across games, so an agent must re-seed its generator in begin_game. */
#ifndef TAIKAI_AGENT_H
#define TAIKAI_AGENT_H

#include <stddef.h>
#include <stdint.h>

#include "common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The version of the descriptor and of the lifecycle. Version 2: every game's info struct
 * starts with tk_game_head; the descriptor declares the version of its game's boundary types
 * and its default weights file. The referee refuses any other version, naming both. Each game's
 * boundary types (view, legal, action, info, result) have a version of their own
 * (TK_<GAME>_TYPES_VERSION in the game's header), refused the same way on mismatch. */
#define TK_AGENT_ABI_VERSION 2u

/* The name of the exported entry symbol, for dlsym. */
#define TK_AGENT_ENTRY_SYMBOL "taikai_agent_entry"

/* The head of every game's info struct (the `game_info` of begin_game): the same fields in
 * the same place for every game, so that the referee and generic tools read them without
 * knowing the game. A game's info struct is `struct { tk_game_head head; ...the game's own }`. */
typedef struct tk_game_head {
  uint32_t abi_version; /* TK_AGENT_ABI_VERSION of the referee */
  uint32_t struct_size; /* sizeof the game's whole info struct */
  uint64_t seed;        /* the agent's seed for this game (re-seed from it) */
  uint64_t wall;        /* the wall (deal, game index) of the tournament */
  int32_t seat;         /* the agent's seat, 0-based */
  int32_t nseats;       /* players in the game */
} tk_game_head;

#if UINTPTR_MAX == 0xffffffffffffffffu
TK_STATIC_ASSERT(sizeof(tk_game_head) == 32, "tk_game_head layout: bump TK_AGENT_ABI_VERSION");
#endif

/* An agent's instance, opaque to the referee. */
typedef void tk_agent_instance;

typedef struct tk_agent_descriptor {
  uint32_t abi_version;    /* TK_AGENT_ABI_VERSION the plugin was built against */
  uint32_t struct_size;    /* sizeof(tk_agent_descriptor) the plugin was built with */
  const char *name;        /* short agent name, [a-z0-9_-]+ ("greedy") */
  const char *version;     /* the agent's own version ("1.0.0") */
  const char *game;        /* the game it plays, as in specs ("solo") */
  uint32_t types_version;  /* the game's TK_<GAME>_TYPES_VERSION it was built against */
  uint32_t reserved;       /* 0 */
  const char *description; /* one line for `taikai plugins` */
  const char *params_json; /* a JSON object: every parameter with its default ("{}" if none) */
  /* A learned agent's default weights: a file name relative to the folder of the plugin's
   * shared object, or NULL for an agent without weights. An agent with weights has a string
   * parameter "weights" (default ""): a path that replaces the default. The referee resolves
   * the file, records its SHA-256 with the run, and passes its path as "weights" to create. */
  const char *weights;

  /* Creates an instance. `params_json` is a JSON object holding every parameter of
   * params_json (defaults merged with the tournament spec's values; the referee has already
   * refused unknown names). `seed` is derived from the tournament seed and the agent's
   * position. Returns an owned instance, or NULL with the reason in `err` (never NULL). */
  tk_agent_instance *(*create)(const char *params_json, uint64_t seed, tk_error *err);
  /* Frees an instance; NULL is a no-op. */
  void (*destroy)(tk_agent_instance *self);
  /* A game starts; `game_info` is the game's info struct (it starts with a tk_game_head:
   * taikai/solo.h tk_solo_info, ...), borrowed for the call. Returns 0 or a negative TK_E code
   * (the game is then a fault). */
  int (*begin_game)(tk_agent_instance *self, const void *game_info);
  /* Chooses an action. `view` and `legal` are the game's view and legal-action structs,
   * borrowed for the call (copies: writing to them changes nothing); the action is written to
   * `action_out` (the game's action struct). Returns 0, or a negative TK_E code (the game is
   * then a fault attributed to the agent). */
  int (*act)(tk_agent_instance *self, const void *view, const void *legal, void *action_out);
  /* The game is over; `result` is the game's result struct, borrowed. */
  void (*end_game)(tk_agent_instance *self, const void *result);

  /* ---- Appended within ABI version 2, both optional (NULL: none). A plugin built before
   * them declares a smaller struct_size (TK_AGENT_DESCRIPTOR_V2_BASE): the referee reads only
   * the struct_size bytes a plugin declares and takes the fields beyond as NULL, so such a
   * plugin loads and runs as before. */

  /* What went wrong in the instance's last call that returned an error (act or begin_game
   * < 0), for the fault record: the agent's own words, with what it received or sent that was
   * wrong (a bridge: the external program's line). Write it to err->msg (tk_error_set, or a
   * NUL-terminated copy of at most TK_ERROR_MSG_MAX - 1 bytes), or leave it empty for nothing to
   * say. The referee calls it right after the failed call, within the same time limit, and
   * keeps the first TK_FAULT_MESSAGE_MAX - 1 bytes as the fault's "message" in games.jsonl
   * (bytes outside printable ASCII become '?'). It must depend only on what the agent did, as
   * its choices do (same run, same message, whatever -j). */
  void (*last_error)(tk_agent_instance *self, tk_error *err);
  /* The files, besides the plugin's shared object and its weights, that make this instance
   * what it is (an external program it runs, a script or model that program reads): file `i`
   * (0, 1, ...) as its path, its role in *role (1 to 31 characters among a-z 0-9 _ -, unique
   * per agent, not "plugin" or "weights"), NULL after the last (at most TK_AGENT_MAX_FILES).
   * The strings are the instance's, valid until it is destroyed. The referee asks once, after
   * its trial create before the run, and records each file's SHA-256 in spec.json's
   * agents[].files, so a run resumed with other bytes in one of them is refused. */
  const char *(*file)(tk_agent_instance *self, int i, const char **role);
} tk_agent_descriptor;

/* The size of an ABI version 2 descriptor without the optional fields appended after
 * end_game: the smallest struct_size the referee accepts. */
#define TK_AGENT_DESCRIPTOR_V2_BASE 104u
/* The most files tk_agent_descriptor.file may name. */
#define TK_AGENT_MAX_FILES 4
/* The bytes (NUL included) of a fault's message kept from last_error. */
#define TK_FAULT_MESSAGE_MAX 256

typedef const tk_agent_descriptor *(*tk_agent_entry_fn)(void);

/* Pin the layout (LP64): a reordered or resized field breaks the build, not the plugins. */
#if UINTPTR_MAX == 0xffffffffffffffffu
TK_STATIC_ASSERT(offsetof(tk_agent_descriptor, abi_version) == 0, "ABI v2 layout");
TK_STATIC_ASSERT(offsetof(tk_agent_descriptor, struct_size) == 4, "ABI v2 layout");
TK_STATIC_ASSERT(offsetof(tk_agent_descriptor, name) == 8, "ABI v2 layout");
TK_STATIC_ASSERT(offsetof(tk_agent_descriptor, types_version) == 32, "ABI v2 layout");
TK_STATIC_ASSERT(offsetof(tk_agent_descriptor, params_json) == 48, "ABI v2 layout");
TK_STATIC_ASSERT(offsetof(tk_agent_descriptor, weights) == 56, "ABI v2 layout");
TK_STATIC_ASSERT(offsetof(tk_agent_descriptor, create) == 64, "ABI v2 layout");
TK_STATIC_ASSERT(offsetof(tk_agent_descriptor, end_game) == 96, "ABI v2 layout");
TK_STATIC_ASSERT(offsetof(tk_agent_descriptor, last_error) == TK_AGENT_DESCRIPTOR_V2_BASE,
                 "ABI v2 layout: optional fields follow end_game");
TK_STATIC_ASSERT(offsetof(tk_agent_descriptor, file) == 112, "ABI v2 layout");
TK_STATIC_ASSERT(sizeof(tk_agent_descriptor) == 120, "ABI v2 size: append fields, never reorder");
#endif

/* Exporting the entry point. In a plugin write
 *     TK_AGENT_ENTRY(greedy) { return &descriptor; }
 * which defines the exported `taikai_agent_entry`. Compiled with -DTAIKAI_AGENT_STATIC it
 * defines `taikai_agent_entry_greedy` instead (a name derived from the plugin's), so several
 * agents can be linked into one test binary. */
#if defined(__GNUC__)
#define TK_AGENT_EXPORT __attribute__((visibility("default")))
#else
#define TK_AGENT_EXPORT
#endif
/* In C++ the entry point keeps C linkage (an unmangled name for dlsym). */
#ifdef __cplusplus
#define TK_AGENT_LINKAGE extern "C"
#else
#define TK_AGENT_LINKAGE
#endif
#ifdef TAIKAI_AGENT_STATIC
#define TK_AGENT_ENTRY(name) \
  TK_AGENT_LINKAGE const tk_agent_descriptor *taikai_agent_entry_##name(void)
#else
#define TK_AGENT_ENTRY(name) \
  TK_AGENT_LINKAGE TK_AGENT_EXPORT const tk_agent_descriptor *taikai_agent_entry(void)
#endif

#ifdef __cplusplus
}
#endif
#endif
