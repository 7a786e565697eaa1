# The cubeless game loop of rollouts and duels.
cpdef enum Policy:
    # Who chooses each play: Python reads these as _rollout.Policy.
    POLICY_RANDOM = 0          # uniform over the distinct plays
    POLICY_PUBEVAL = 1         # Tesauro's pubeval
    POLICY_NET = 2             # the network at 0-ply
    POLICY_GIVEN = 3           # env_answer only: the choices come from the caller
