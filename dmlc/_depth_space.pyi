# The signatures of the Cython module's public functions, for type checkers (dmlc ships
# py.typed); tests/test_api_signatures.py checks them against the compiled functions.
from typing import Optional, Union

import numpy as np
from numpy.typing import ArrayLike

from dmlc._enums import DepthSpaceOrder

def depth_to_space(x: ArrayLike, block_size: int, *, order: Union[str, DepthSpaceOrder] = "depth_column_row",
                   out: Optional[np.ndarray] = None) -> np.ndarray: ...
def space_to_depth(x: ArrayLike, block_size: int, *, order: Union[str, DepthSpaceOrder] = "depth_column_row",
                   out: Optional[np.ndarray] = None) -> np.ndarray: ...
