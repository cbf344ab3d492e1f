"""The worked examples of DirectML's reference pages, transcribed as data.

Each operator family (src/schema.def) has a module here holding ``EXAMPLES``: a list of :class:`Example`.  ``dmlc examples``
runs them through the library and tests use them as golden tables, so the values are
written once, here.
"""
import dataclasses
import importlib
from typing import Callable, Dict, List

import numpy as np

from dmlc._core import FAMILIES


@dataclasses.dataclass
class Example:
    name: str                      # "DEPTH_TO_SPACE1 example 1 (DEPTH_COLUMN_ROW)"
    page: str                      # the DirectML page it comes from
    params: Dict[str, object]      # the desc fields, for display
    inputs: Dict[str, np.ndarray]  # name -> array
    expected: Dict[str, np.ndarray]
    run: Callable[[Dict[str, np.ndarray]], Dict[str, np.ndarray]]  # computes the outputs with dmlc


def all_examples() -> List[Example]:
    out = []
    for family in FAMILIES:
        out.extend(importlib.import_module(f"dmlc._examples.{family}").EXAMPLES)
    return out
