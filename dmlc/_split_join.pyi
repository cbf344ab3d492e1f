# The signatures of the Cython module's public functions, for type checkers (dmlc ships
# py.typed); tests/test_api_signatures.py checks them against the compiled functions.
from typing import List, Optional, Sequence, Tuple, Union

import numpy as np
from numpy.typing import ArrayLike

def _sections_or_sizes(value: Union[int, Sequence[int]], fname: str) -> Tuple[Optional[int], Optional[List[int]]]: ...
def split(x: ArrayLike, sections_or_sizes: Union[int, Sequence[int]], axis: int, *,
          out: Optional[Sequence[np.ndarray]] = None) -> List[np.ndarray]: ...
def join(arrays: Sequence[ArrayLike], axis: int, *, out: Optional[np.ndarray] = None) -> np.ndarray: ...
