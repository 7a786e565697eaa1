"""The neural network evaluator's Python entry points, one module for the
four kernels behind them: the inputs (_features), the forward pass and the
``Networks`` object (_forward), the search (_search) and training
(_train).  docs/evaluation.md describes the networks.
"""
from ._features import encode_boards, escapes, position_classes
from ._forward import Networks, prune_chances, set_instruction_set
from ._search import candidates, choose, evaluate, rank_plays
from ._train import (sample_positions, selfplay_train, td_returns, train_pruner,
                               train_supervised)

__all__ = ["Networks", "evaluate", "choose", "rank_plays", "candidates", "encode_boards", "escapes", "position_classes",
           "prune_chances", "set_instruction_set", "sample_positions", "selfplay_train", "td_returns",
           "train_pruner", "train_supervised"]
