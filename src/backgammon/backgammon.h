/* The C types of backgammon's public Cython API (docs/cython-api.md).

   Include directory: backgammon.get_include().  The functions are reached
   from Cython by cimporting backgammon.board, backgammon.movegen,
   backgammon.net, backgammon.bearoff and backgammon.evaluator; this header
   holds what their declarations need: opaque handles (their layout is the
   package's own and may change in any release), the native evaluator
   protocol (a versioned struct that the caller fills) and the API's
   version.  Semantic versioning covers everything declared here. */
#ifndef BACKGAMMON_H
#define BACKGAMMON_H
#include <stddef.h>
#include <stdint.h>

/* The Cython API's version: raised with every incompatible change to a
   declaration of the public .pxd files or of this header. */
#define BG_API_VERSION 1

/* A move generator: made by movegen_new, freed by movegen_free; one thread
   at a time. */
typedef struct bg_movegen bg_movegen;

/* The networks of a backgammon.network Networks object, valid while that
   object lives (read only: any number of threads at once). */
typedef struct bg_networks bg_networks;

/* Scratch space of network evaluations: made by scratch_new, freed by
   scratch_free; one thread at a time. */
typedef struct bg_scratch bg_scratch;

/* The native evaluator protocol.  A third party's evaluator fills this
   struct and hands it to the package in a PyCapsule named
   BG_EVALUATOR_CAPSULE, returned by the method __backgammon_evaluator__()
   of its Python object; the struct and its context must live as long as
   that object.

   evaluate(context, boards, n, out): the five cubeless chances (win, win
   gammon, win backgammon, lose gammon, lose backgammon; gammons include
   backgammons) of the side on roll of each of n boards (n x 2 x 25 uint8,
   the position array: row 1 on roll), as n x 5 float32 in out.  Games
   already over never reach it.  Returns 0, or -1 when it failed (the
   caller then stops and raises RuntimeError).  Called without the GIL,
   possibly from several threads at once with the same context: keep
   per-call state on the stack.

   prune (may be NULL): cheaper chances of the same boards, used only to
   rank a position's plays: the prune_keep best (1 to 16) within
   prune_within cubeless equity of the best are then evaluated in full.
   Without a pruner every play is evaluated in full. */
typedef int (*bg_evaluate_fn)(void* context, const uint8_t* boards, ptrdiff_t n, float* out);

#define BG_EVALUATOR_VERSION 1
#define BG_EVALUATOR_CAPSULE "backgammon.evaluator"

typedef struct bg_evaluator {
    int version;                /* BG_EVALUATOR_VERSION */
    void* context;
    bg_evaluate_fn evaluate;
    bg_evaluate_fn prune;
    int prune_keep;
    float prune_within;
} bg_evaluator;

#endif
