# The signature of the Cython module's public functions, for type checkers (dmlc ships
# py.typed); tests/test_api_signatures.py checks it against the compiled function.
from typing import Optional, Sequence, Union

import numpy as np
from numpy.typing import ArrayLike

from dmlc._enums import InterpolationMode

def roi_pool(x: ArrayLike, rois: ArrayLike, pooled_size: Union[int, Sequence[int]], spatial_scale: float = 1.0, *,
             out: Optional[np.ndarray] = None) -> np.ndarray: ...

def roi_align(x: ArrayLike, rois: ArrayLike, batch_indices: ArrayLike, output_size: Union[int, Sequence[int]], *,
              spatial_scale: Union[float, Sequence[float]] = 1.0, sampling_ratio: int = 0, mode: str = "avg",
              aligned: bool = True, interpolation: Union[str, InterpolationMode] = "linear",
              out_of_bounds_value: float = 0.0, out: Optional[np.ndarray] = None) -> np.ndarray: ...
