# The networks, as other kernels cimport them: the forward pass (_forward),
# the inputs (_features).  Kept under this name for kernels written
# against it; new code cimports _forward and _features.
from backgammon._features cimport (PositionClass, position_class, CLASS_OVER, CLASS_BEAROFF, CLASS_RACE,
                                   CLASS_CONTACT, CLASS_CRASHED, MAX_NONZERO, CONTACT_INPUTS, RACE_INPUTS,
                                   PRUNE_INPUTS)
from backgammon._forward cimport (Networks, Evaluator, Net, Start, Work, OUTPUTS, PRUNE_KEEP, MAX_PRUNE_KEEP,
                                  MAX_HIDDEN, net_for, evaluate_board, equity, best_child, best_child_chances)
