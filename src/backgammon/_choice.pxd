# Choosing a play: the policies the kernels play with themselves (the game
# loop of rollouts, duels' kernel players, the environments' opponents).
from libc.stdint cimport uint8_t
from numpy.random cimport bitgen_t
from backgammon._forward cimport Evaluator, Work

cpdef enum Policy:
    # Who chooses each play: Python reads these as _choice.Policy.
    POLICY_RANDOM = 0          # uniform over the distinct plays
    POLICY_PUBEVAL = 1         # Tesauro's pubeval
    POLICY_NET = 2             # the network at 0-ply
    POLICY_GIVEN = 3           # the environments only: the choices come from the caller

# The index of the chosen play among the n children (next mover's view) of
# board; rng for the random policy, ev and work for the network.
cdef int choose(int policy, bitgen_t* rng, const uint8_t* board, const uint8_t* children, int n,
                const Evaluator* ev, Work* work) noexcept nogil

# That policy can be played with what is given (raises ValueError or
# RuntimeError naming what is missing); given_ok: POLICY_GIVEN is allowed.
cdef int need_policy(int policy, object nets, bint has_generator, bint given_ok) except -1
