"""A network over Tesauro's 198 inputs as a native evaluator for
backgammon's kernel game loop (the native evaluator protocol,
docs/cython-api.md).

>>> import numpy as np, backgammon as bg
>>> net = TesauroNet()                      # the shipped weights and pruner
>>> net(bg.Position.initial().array[None]).shape
(1, 5)
"""
from ._net import TesauroNet

__all__ = ["TesauroNet"]
