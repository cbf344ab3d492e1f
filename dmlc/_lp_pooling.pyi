# The signature of the Cython module's public function, for type checkers (dmlc ships
# py.typed); tests/test_api_signatures.py checks it against the compiled function.
from typing import Optional, Sequence, Union

import numpy as np
from numpy.typing import ArrayLike

def lp_pool(x: ArrayLike, window_size: Union[int, Sequence[int]], p: int = 2, *,
            strides: Optional[Union[int, Sequence[int]]] = None,
            start_padding: Optional[Union[int, Sequence[int]]] = None,
            end_padding: Optional[Union[int, Sequence[int]]] = None,
            dilations: Optional[Union[int, Sequence[int]]] = None, ceil_mode: bool = False,
            out: Optional[np.ndarray] = None) -> np.ndarray: ...
