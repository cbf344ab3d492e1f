# The signature of the Cython module's public function, for type checkers (dmlc ships
# py.typed); tests/test_api_signatures.py checks it against the compiled function.
from typing import Optional, Sequence, Tuple, Union

import numpy as np
from numpy.typing import ArrayLike

def _indices_dtype(indices_dtype: Union[str, np.dtype, type]) -> np.dtype: ...
def max_pool(x: ArrayLike, window_size: Union[int, Sequence[int]], *,
             strides: Optional[Union[int, Sequence[int]]] = None,
             start_padding: Optional[Union[int, Sequence[int]]] = None,
             end_padding: Optional[Union[int, Sequence[int]]] = None,
             dilations: Optional[Union[int, Sequence[int]]] = None, return_indices: bool = False,
             indices_dtype: Union[str, np.dtype] = "uint32", ceil_mode: bool = False,
             out: Union[None, np.ndarray, Tuple[np.ndarray, np.ndarray]] = None,
             ) -> Union[np.ndarray, Tuple[np.ndarray, np.ndarray]]: ...
