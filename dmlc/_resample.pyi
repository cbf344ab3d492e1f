# Signatures of the Cython module's functions, for type checkers (dmlc ships py.typed).
from typing import Optional, Sequence

import numpy as np
from numpy.typing import ArrayLike

def resample2(x: ArrayLike, mode: int, rounding: int, scales: Sequence[float], input_offsets: Sequence[float],
              output_offsets: Sequence[float], shape: tuple, out: Optional[np.ndarray]) -> np.ndarray: ...
def upsample2d(x: ArrayLike, mode: int, height: int, width: int, shape: tuple,
               out: Optional[np.ndarray]) -> np.ndarray: ...
def input_of(x: ArrayLike) -> np.ndarray: ...
