"""The documentation's pictures, drawn with matplotlib from dmlc's own output on small arrays.

Each figure function calls dmlc, asserts the result against a plain NumPy statement of the
operator's rule (written here, independently of dmlc), and only then draws it: a wrong
picture is a failed build, never a published one.  ``FIGURES`` maps each picture's file name
to its function; ``OPERATOR_FIGURES`` says which picture each operator page of src/schema.def shows.
"""
import os

import numpy as np

import dmlc

# Colours for "which source element / part / window": matplotlib's tab10, light enough
# for black labels.
_PALETTE = ["#8ecae6", "#ffb703", "#90be6d", "#f28482", "#cdb4db", "#f9c74f", "#a8dadc", "#e9c46a"]
_PAD = "#e5e5e5"


def _plt():
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def _grid(ax, labels, colors, title, hatch=None):
    """Draws a 2-D grid of cells: labels[r][c] text on colors[r][c] (hatched where hatch)."""
    from matplotlib.patches import Rectangle
    rows, cols = len(labels), len(labels[0])
    for r in range(rows):
        for c in range(cols):
            ax.add_patch(Rectangle((c, rows - 1 - r), 1, 1, facecolor=colors[r][c], edgecolor="#333333",
                                   linewidth=0.8, hatch="//" if hatch is not None and hatch[r][c] else None))
            ax.text(c + 0.5, rows - 0.5 - r, labels[r][c], ha="center", va="center", fontsize=9)
    ax.set_xlim(-0.1, cols + 0.1)
    ax.set_ylim(-0.1, rows + 0.1)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.set_title(title, fontsize=10)


def _fmt(v):
    v = float(v)
    if np.isnan(v):
        return "nan"
    if np.isinf(v):
        return "-inf" if v < 0 else "inf"
    return f"{v:g}" if v == int(v) else f"{v:.2f}"


def depth_space():
    """DEPTH_TO_SPACE in both orders (and SPACE_TO_DEPTH, its inverse): which channel each
    output element comes from."""
    b, C, H, W = 2, 8, 2, 2
    co = C // (b * b)
    x = np.arange(C * H * W, dtype=np.float32).reshape(1, C, H, W)
    orders = {"depth_column_row": "DEPTH_COLUMN_ROW (DCR, TensorFlow)", "column_row_depth": "COLUMN_ROW_DEPTH (CRD, PyTorch)"}
    ys = {}
    for order in orders:
        y = dmlc.depth_to_space(x, b, order=order)
        ref = np.empty((1, co, H * b, W * b), np.float32)
        for c in range(co):
            for h in range(H):
                for w in range(W):
                    for i in range(b):
                        for j in range(b):
                            ic = (i * b + j) * co + c if order == "depth_column_row" else c * b * b + i * b + j
                            ref[0, c, h * b + i, w * b + j] = x[0, ic, h, w]
        assert np.array_equal(y, ref), order
        assert np.array_equal(dmlc.space_to_depth(y, b, order=order), x), order
        ys[order] = y
    plt = _plt()
    fig, axes = plt.subplots(2, C + 1, figsize=(12, 4.2), gridspec_kw={"width_ratios": [1] * C + [2.2]})
    for k, order in enumerate(orders):
        for c in range(C):
            _grid(axes[k, c], [[_fmt(v) for v in row] for row in x[0, c]], [[_PALETTE[c]] * W] * H,
                  f"in channel {c}" if k == 0 else "")
        y = ys[order]
        colors = [[_PALETTE[int(v) // (H * W)] for v in row] for row in y[0, 0]]
        _grid(axes[k, C], [[_fmt(v) for v in row] for row in y[0, 0]], colors, f"out channel 0\n{orders[order]}")
    fig.suptitle("depth_to_space(x, 2): x of shape (1, 8, 2, 2) -> (1, 2, 4, 4); colour = input channel. "
                 "space_to_depth maps back.", fontsize=10, y=1.08)
    return fig


def padding_modes():
    """The five padding modes side by side, 1-D, with padding wider than the input."""
    x = np.array([1, 2, 3, 4], np.float32)
    s, e = 6, 5
    modes = [("constant", "constant", {"value": 0}, {"constant_values": 0}), ("edge", "edge", {}, {}),
             ("reflection", "reflect", {}, {}), ("symmetric", "symmetric", {}, {}), ("wrap", "wrap", {}, {})]
    plt = _plt()
    fig, axes = plt.subplots(len(modes), 1, figsize=(9, 4.6))
    for ax, (mode, np_mode, kw, np_kw) in zip(axes, modes):
        y = dmlc.pad(x, s, e, mode=mode, **kw)
        assert np.array_equal(y, np.pad(x, (s, e), mode=np_mode, **np_kw)), mode
        inside = [s <= i < s + x.size for i in range(y.size)]
        colors = [[_PALETTE[int(v) - 1] if inside[i] or (mode != "constant") else "white" for i, v in enumerate(y)]]
        _grid(ax, [[_fmt(v) for v in y]], colors, "", hatch=[[not t for t in inside]])
        ax.text(-0.4, 0.5, f'mode="{mode}"', ha="right", va="center", fontsize=10)
    fig.suptitle("pad([1, 2, 3, 4], 6, 5, mode=...): hatched cells are padding, coloured by the input element they copy",
                 fontsize=10)
    fig.subplots_adjust(left=0.2)
    return fig


def _pool_reference(x, k, s, p0, p1, d, ceil_mode=False):
    """Max and average (in-bounds count) of every window of a 2-D array, as the operator pages
    state the rule: window element t of output o covers input o*stride - start + t*dilation."""
    n = x.shape[0]
    ke = (k - 1) * d + 1
    span = n + p0 + p1 - ke
    size = span // s + 1
    if ceil_mode:
        size = -(-span // s) + 1
        if (size - 1) * s >= n + p0:
            size -= 1
    mx = np.full((size, size), -np.inf, np.float32)
    av = np.full((size, size), np.nan, np.float64)
    cells = {}
    for oi in range(size):
        for oj in range(size):
            hit = [(oi * s - p0 + a * d, oj * s - p0 + b * d) for a in range(k) for b in range(k)]
            inb = [(r, c) for r, c in hit if 0 <= r < n and 0 <= c < n]
            cells[oi, oj] = hit
            if inb:
                mx[oi, oj] = max(x[r, c] for r, c in inb)
                av[oi, oj] = np.mean([x[r, c] for r, c in inb])
    return mx, av, cells


def pooling_windows():
    """Pooling windows over a 5x5 input: padding, dilation and ceil mode."""
    x = np.array([[3, 1, 4, 1, 5], [9, 2, 6, 5, 3], [5, 8, 9, 7, 9], [3, 2, 3, 8, 4], [6, 2, 6, 4, 3]], np.float32)
    cases = [("window 3, stride 2, padding 1", dict(k=3, s=2, p0=1, p1=1, d=1), {}),
             ("window 2, stride 1, dilation 2", dict(k=2, s=1, p0=0, p1=0, d=2), {}),
             ("window 2, stride 2, ceil_mode=True", dict(k=2, s=2, p0=0, p1=0, d=1), {"ceil_mode": True})]
    plt = _plt()
    fig, axes = plt.subplots(2, 3, figsize=(12, 7.6), gridspec_kw={"height_ratios": [2.2, 1]})
    for col, (title, w, extra) in enumerate(cases):
        kw = dict(strides=w["s"], start_padding=w["p0"], end_padding=w["p1"], dilations=w["d"], **extra)
        got = dmlc.max_pool(x[None, None], w["k"], **kw)[0, 0]
        avg = dmlc.avg_pool(x[None, None], w["k"], **kw)[0, 0]
        l2 = dmlc.lp_pool(x[None, None], w["k"], 2, **kw)[0, 0]
        mx, av, cells = _pool_reference(x, w["k"], w["s"], w["p0"], w["p1"], w["d"], **extra)
        norm = np.array([[np.sqrt(sum(float(x[r, c]) ** 2 for r, c in cells[oi, oj] if 0 <= r < x.shape[0] and 0 <= c < x.shape[1]))
                          for oj in range(l2.shape[1])] for oi in range(l2.shape[0])])
        assert np.array_equal(got, mx), title
        assert np.allclose(avg, av, rtol=1e-6, equal_nan=True), title
        assert np.allclose(l2, norm, rtol=1e-6), title
        # The input with its padding (and, in ceil mode, the part of the last window past it).
        n = x.shape[0]
        lo = w["p0"]
        hi = max(w["p1"], max(max(r, c) for v in cells.values() for r, c in v) - n + 1)
        size = n + lo + hi
        labels = [["" for _ in range(size)] for _ in range(size)]
        colors = [[_PAD for _ in range(size)] for _ in range(size)]
        for r in range(n):
            for c in range(n):
                labels[r + lo][c + lo] = _fmt(x[r, c])
                colors[r + lo][c + lo] = "white"
        ax = axes[0, col]
        _grid(ax, labels, colors, f"{title}\noutput {got.shape[0]}x{got.shape[1]}")
        from matplotlib.patches import Rectangle
        for (oi, oj), hit in sorted(cells.items()):
            color = _PALETTE[(oi * got.shape[1] + oj) % len(_PALETTE)]
            for r, c in hit:
                inset = 0.12 + 0.06 * ((oi * got.shape[1] + oj) % 4)
                ax.add_patch(Rectangle((c + lo + inset, size - 1 - (r + lo) + inset), 1 - 2 * inset, 1 - 2 * inset,
                                       fill=False, edgecolor=color, linewidth=2))
        out_colors = [[_PALETTE[(i * got.shape[1] + j) % len(_PALETTE)] for j in range(got.shape[1])]
                      for i in range(got.shape[0])]
        _grid(axes[1, col], [[f"{_fmt(a)} | {_fmt(b)}\n{_fmt(c)}" for a, b, c in zip(r1, r2, r3)]
                             for r1, r2, r3 in zip(got, avg, l2)],
              out_colors, "max | average, and L2 norm (lp_pool, P 2), per window")
    fig.suptitle("Pooling windows: grey cells are padding (never part of a maximum, an average or a norm); "
                 "each output's window is outlined in its colour", fontsize=10)
    return fig


def max_unpool():
    """Max pooling's indices and max_unpool putting the values back."""
    x = np.array([[1, 8, 2, 3], [5, 4, 9, 0], [7, 7, 6, 11], [7, 2, 6, 1]], np.float32)[None, None]
    v, i = dmlc.max_pool(x, 2, return_indices=True)
    u = dmlc.max_unpool(v, i, x.shape)
    ref = np.zeros_like(x)
    ref.flat[i.ravel().astype(np.int64)] = v.ravel()
    assert np.array_equal(u, ref)
    assert i.ravel().tolist() == [1, 6, 8, 11]
    plt = _plt()
    fig, axes = plt.subplots(1, 3, figsize=(10, 3.4))
    picked = set(i.ravel().tolist())
    blocks = [[_PALETTE[(r // 2) * 2 + c // 2] for c in range(4)] for r in range(4)]
    _grid(axes[0], [[_fmt(x[0, 0, r, c]) + ("*" if r * 4 + c in picked else "") for c in range(4)] for r in range(4)],
          blocks, "x; * = each window's maximum")
    _grid(axes[1], [[f"{_fmt(v[0, 0, r, c])} @ {i[0, 0, r, c]}" for c in range(2)] for r in range(2)],
          [[_PALETTE[r * 2 + c] for c in range(2)] for r in range(2)], "max_pool(x, 2, return_indices=True)")
    _grid(axes[2], [[_fmt(u[0, 0, r, c]) for c in range(4)] for r in range(4)],
          [[blocks[r][c] if r * 4 + c in picked else "white" for c in range(4)] for r in range(4)],
          "max_unpool(values, indices, x.shape)")
    return fig


def split_join():
    """SPLIT along an axis into parts of given sizes; JOIN puts them back."""
    x = np.arange(24, dtype=np.float32).reshape(6, 4)
    parts = dmlc.split(x, [2, 1, 3], axis=0)
    assert [p.tolist() for p in parts] == [p.tolist() for p in np.split(x, [2, 3], axis=0)]
    joined = dmlc.join(parts, axis=0)
    assert np.array_equal(joined, x)
    cols = dmlc.split(x, 2, axis=1)
    assert [p.tolist() for p in cols] == [p.tolist() for p in np.split(x, 2, axis=1)]
    plt = _plt()
    fig, axes = plt.subplots(1, 6, figsize=(12, 3.6), gridspec_kw={"width_ratios": [4, 4, 4, 4, 2, 2]})
    owner = [0, 0, 1, 2, 2, 2]
    _grid(axes[0], [[_fmt(v) for v in r] for r in x], [[_PALETTE[owner[k]]] * 4 for k in range(6)],
          "x (6, 4)")
    for k, p in enumerate(parts):
        pad = [[""] * 4] * (6 - p.shape[0])
        _grid(axes[k + 1], [[_fmt(v) for v in r] for r in p] + pad,
              [[_PALETTE[k]] * 4] * p.shape[0] + [["white"] * 4] * (6 - p.shape[0]), f"part {k}: {p.shape}")
    for k, p in enumerate(cols):
        _grid(axes[4 + k], [[_fmt(v) for v in r] for r in p], [[_PALETTE[3 + k]] * 2] * 6, f"half {k}")
    fig.suptitle("split(x, [2, 1, 3], axis=0) gives parts of 2, 1 and 3 rows; join(parts, axis=0) gives x back; "
                 "split(x, 2, axis=1) gives the two halves of the columns", fontsize=10)
    return fig


def tile():
    """TILE: the input repeated along each axis."""
    x = np.array([[1, 2, 3], [4, 5, 6]], np.float32)
    y = dmlc.tile(x, [2, 3])
    assert np.array_equal(y, np.tile(x, (2, 3)))
    plt = _plt()
    fig, axes = plt.subplots(1, 2, figsize=(10, 2.6), gridspec_kw={"width_ratios": [3, 9]})
    _grid(axes[0], [[_fmt(v) for v in r] for r in x], [[_PALETTE[int(v) - 1] for v in r] for r in x], "x (2, 3)")
    _grid(axes[1], [[_fmt(v) for v in r] for r in y], [[_PALETTE[int(v) - 1] for v in r] for r in y],
          "tile(x, [2, 3]) (4, 9): out[o] = x[o mod x.shape]")
    return fig


def slicing():
    """SLICE1's window with positive and negative strides: which elements, in which order."""
    x = np.arange(1, 26, dtype=np.float32).reshape(5, 5)
    cases = [([1, 0], [3, 5], [1, 2]), ([0, 1], [5, 3], [-2, 1])]
    plt = _plt()
    fig, axes = plt.subplots(1, 4, figsize=(12, 3.4), gridspec_kw={"width_ratios": [5, 3, 5, 3]})
    for k, (off, size, step) in enumerate(cases):
        y = dmlc.slice(x, off, size, step)
        idx = []
        for o, n, s in zip(off, size, step):
            idx.append(np.arange(o, o + n, s) if s > 0 else np.arange(o + n - 1, o - 1, s))
        ref = x[np.ix_(*idx)]
        assert np.array_equal(y, ref), (off, size, step)
        order = {}
        for a, r in enumerate(idx[0]):
            for b, c in enumerate(idx[1]):
                order[int(r), int(c)] = a * len(idx[1]) + b
        colors = [[_PALETTE[k] if (r, c) in order else ("#f4f4f4" if off[0] <= r < off[0] + size[0]
                                                          and off[1] <= c < off[1] + size[1] else "white")
                   for c in range(5)] for r in range(5)]
        labels = [[_fmt(x[r, c]) + (f"\n#{order[r, c]}" if (r, c) in order else "") for c in range(5)] for r in range(5)]
        _grid(axes[2 * k], labels, colors, f"slice(x, {off}, {size}, {step})\ngrey: the window; #: output order")
        _grid(axes[2 * k + 1], [[_fmt(v) for v in r] for r in y], [[_PALETTE[k]] * y.shape[1]] * y.shape[0],
              f"result {y.shape}")
    return fig


def identity():
    """ELEMENT_WISE_IDENTITY: a strided view materialised (a transpose), with scale and bias."""
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    y = dmlc.identity(x.T)
    assert np.array_equal(y, x.T) and y.flags.c_contiguous
    z = dmlc.identity(x, scale=2, bias=10)
    assert np.array_equal(z, (x * np.float32(2)) + np.float32(10))
    plt = _plt()
    fig, axes = plt.subplots(1, 3, figsize=(10, 2.8), gridspec_kw={"width_ratios": [3, 2, 3]})
    col = [[_PALETTE[int(v)] for v in r] for r in x]
    _grid(axes[0], [[_fmt(v) for v in r] for r in x], col, "x (2, 3), row-major in memory")
    _grid(axes[1], [[_fmt(v) for v in r] for r in y], [[_PALETTE[int(v)] for v in r] for r in y],
          "identity(x.T): packed (3, 2)")
    _grid(axes[2], [[_fmt(v) for v in r] for r in z], col, "identity(x, scale=2, bias=10)")
    return fig


def gather_elements():
    """GATHER_ELEMENTS and SCATTER_ELEMENTS along axis 1: each index picks (or receives) one
    element of its own row; -1 is the last column, 9 is clamped (gather) or dropped (scatter)."""
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    idx = np.array([[3, 0], [-1, 1], [9, 2]], np.int64)
    upd = np.array([[-1, -2], [-3, -4], [-5, -6]], np.float32)
    y = dmlc.gather_elements(x, idx, axis=1)
    z = dmlc.scatter_elements(x, idx, upd, axis=1)
    cols = np.where(idx < 0, idx + 4, idx)
    assert np.array_equal(y, np.take_along_axis(x, np.clip(cols, 0, 3), 1)), y
    want = x.copy()
    for r, c in np.ndindex(*idx.shape):
        if 0 <= cols[r, c] < 4:
            want[r, cols[r, c]] = upd[r, c]
    assert np.array_equal(z, want), z
    plt = _plt()
    fig, axes = plt.subplots(1, 4, figsize=(12, 3.0), gridspec_kw={"width_ratios": [4, 2, 2, 4]})
    xcol = [[_PALETTE[c] for c in range(4)] for _ in range(3)]
    _grid(axes[0], [[_fmt(v) for v in r] for r in x], xcol, "x (3, 4)")
    picked = np.clip(cols, 0, 3)
    _grid(axes[1], [[str(i) for i in r] for r in idx.tolist()], [[_PALETTE[c] for c in r] for r in picked], "indices")
    _grid(axes[2], [[_fmt(v) for v in r] for r in y], [[_PALETTE[c] for c in r] for r in picked],
          "gather_elements(x, i, 1)")
    zcol = [[_PALETTE[7] if v < 0 else _PALETTE[c] for c, v in enumerate(r)] for r in z]
    _grid(axes[3], [[_fmt(v) for v in r] for r in z], zcol, "scatter_elements(x, i, u, 1)")
    fig.suptitle("gather: out[r, j] = x[r, i[r, j]] (9 clamps to 3); scatter: x[r, i[r, j]] = u[r, j] "
                 "(u = -1..-6; 9 writes nothing)", fontsize=10)
    return fig


def one_hot():
    """ONE_HOT along the last axis and along axis 0: each index marks one position of its
    sequence with on, -1 counts from the end and 5 (out of range) leaves its sequence off."""
    idx = np.array([2, 0, -1, 5], np.int64)
    y = dmlc.one_hot(idx, 3, values=(0, 1))
    z = dmlc.one_hot(idx, 3, axis=0, values=(-1, 7), dtype=np.int8)
    adj = np.where(idx < 0, idx + 3, idx)
    want = np.array([[1.0 if c == a else 0.0 for c in range(3)] for a in adj.tolist()], np.float32)
    assert np.array_equal(y, want), y
    assert np.array_equal(z, np.where(want.T == 1, 7, -1).astype(np.int8)), z
    plt = _plt()
    fig, axes = plt.subplots(1, 3, figsize=(9, 3.0), gridspec_kw={"width_ratios": [1, 3, 4]})
    hot = [_PALETTE[k] for k in range(4)]
    _grid(axes[0], [[str(i)] for i in idx.tolist()], [[hot[r]] for r in range(4)], "indices")
    _grid(axes[1], [[_fmt(v) for v in r] for r in y], [[hot[r] if v else "white" for v in row]
                                                        for r, row in enumerate(y)], "one_hot(i, 3)")
    _grid(axes[2], [[_fmt(v) for v in r] for r in z], [[hot[c] if v == 7 else "white" for c, v in enumerate(row)]
                                                        for row in z], "one_hot(i, 3, axis=0, values=(-1, 7))")
    fig.suptitle("out[r, c] = on where c = i[r] (-1 + 3 = 2), off elsewhere; 5 is out of range: all off",
                 fontsize=10)
    return fig


def gather():
    """GATHER: rows of a table picked by indices, negative ones from the end, out-of-range ones clamped."""
    x = np.arange(12, dtype=np.float32).reshape(4, 3)
    idx = np.array([2, 0, -1, 9], np.int64)
    y = dmlc.gather(x, idx, axis=0)
    n = x.shape[0]
    rows = [min(max(i + n if i < 0 else i, 0), n - 1) for i in idx.tolist()]
    assert np.array_equal(y, x[rows]), (y, rows)
    plt = _plt()
    fig, axes = plt.subplots(1, 3, figsize=(10, 3.0), gridspec_kw={"width_ratios": [3, 1, 3]})
    _grid(axes[0], [[_fmt(v) for v in r] for r in x], [[_PALETTE[k]] * 3 for k in range(n)], "x (4, 3)")
    _grid(axes[1], [[str(i)] for i in idx.tolist()], [[_PALETTE[r]] for r in rows], "indices")
    _grid(axes[2], [[_fmt(v) for v in r] for r in y], [[_PALETTE[r]] * 3 for r in rows],
          "gather(x, indices, axis=0)")
    fig.suptitle("out[j] = x[clamp(i if i >= 0 else i + 4, 0, 3)]: -1 reads the last row, 9 clamps to it",
                 fontsize=10)
    return fig


def gather_nd():
    """GATHER_ND and SCATTER_ND with index pairs into a 3x4 array: each pair names one
    element; -1 counts from the end, 9 is clamped (gather) or skips the pair (scatter)."""
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    idx = np.array([[2, 1], [0, -1], [1, 9], [2, 1]], np.int64)
    upd = np.array([-1, -2, -3, -4], np.float32)
    y = dmlc.gather_nd(x, idx)
    z = dmlc.scatter_nd(x, idx, upd)
    adj = np.where(idx < 0, idx + np.array([3, 4]), idx)
    picked = np.minimum(adj, [2, 3])
    assert np.array_equal(y, x[picked[:, 0], picked[:, 1]]), y
    want = x.copy()
    for (r, c), v in zip(adj.tolist(), upd.tolist()):  # in order: the later of two equal pairs wins
        if r < 3 and c < 4:
            want[r, c] = v
    assert np.array_equal(z, want), z
    plt = _plt()
    fig, axes = plt.subplots(1, 4, figsize=(12, 3.0), gridspec_kw={"width_ratios": [4, 2, 1, 4]})
    color = {(r, c): _PALETTE[(r * 4 + c) % len(_PALETTE)] for r in range(3) for c in range(4)}
    _grid(axes[0], [[_fmt(v) for v in r] for r in x], [[color[(r, c)] for c in range(4)] for r in range(3)],
          "x (3, 4)")
    pcol = [[color[(int(r), int(c))]] * 2 for r, c in picked]
    _grid(axes[1], [[str(v) for v in r] for r in idx.tolist()], pcol, "index pairs")
    _grid(axes[2], [[_fmt(v)] for v in y], [[p[0]] for p in pcol], "gather_nd")
    zcol = [[_PALETTE[7] if z[r, c] < 0 else color[(r, c)] for c in range(4)] for r in range(3)]
    _grid(axes[3], [[_fmt(v) for v in r] for r in z], zcol, "scatter_nd(x, i, u)")
    fig.suptitle("gather: out[j] = x[i[j, 0], i[j, 1]] (9 clamps to 3); scatter: x[i[j]] = u[j] "
                 "(u = -1..-4; (1, 9) writes nothing; (2, 1) twice: the later wins)", fontsize=10)
    return fig


def resample():
    """RESAMPLE2: a 2x2 image enlarged to 4x4, nearest and linear (pixel centres, clamped edges)."""
    x = np.array([[1, 2], [3, 4]], np.float32)
    near = dmlc.resample(x, scales=[2, 2])
    lin = dmlc.resample(x, scales=[2, 2], mode="linear")

    def coord(o, n):  # half-pixel: x = (o + 0.5) / scale - 0.5
        return (o + 0.5) / 2 - 0.5

    want_near = np.empty((4, 4), np.float32)
    want_lin = np.empty((4, 4), np.float32)
    for a in range(4):
        for b in range(4):
            ca, cb = coord(a, 2), coord(b, 2)
            want_near[a, b] = x[min(max(int(np.ceil(ca - 0.5)), 0), 1), min(max(int(np.ceil(cb - 0.5)), 0), 1)]
            ca, cb = min(max(ca, 0.0), 1.0), min(max(cb, 0.0), 1.0)
            i, j = int(np.floor(ca)), int(np.floor(cb))
            wa, wb = ca - i, cb - j
            i1, j1 = min(i + 1, 1), min(j + 1, 1)
            want_lin[a, b] = ((1 - wa) * (1 - wb) * x[i, j] + (1 - wa) * wb * x[i, j1]
                              + wa * (1 - wb) * x[i1, j] + wa * wb * x[i1, j1])
    assert np.array_equal(near, want_near), near
    assert np.allclose(lin, want_lin, rtol=0, atol=1e-6), lin
    assert np.array_equal(dmlc.upsample_2d(x[None, None], 2, mode="linear")[0, 0], lin)
    plt = _plt()
    fig, axes = plt.subplots(1, 3, figsize=(10, 3.0), gridspec_kw={"width_ratios": [2, 4, 4]})
    _grid(axes[0], [[_fmt(v) for v in r] for r in x], [[_PALETTE[int(v) - 1] for v in r] for r in x], "x (2, 2)")
    _grid(axes[1], [[_fmt(v) for v in r] for r in near], [[_PALETTE[int(v) - 1] for v in r] for r in near],
          "resample(x, scales=[2, 2])")
    _grid(axes[2], [[_fmt(v) for v in r] for r in lin], [["white"] * 4 for _ in range(4)],
          'mode="linear" (= upsample_2d)')
    fig.suptitle("x = (o + 0.5) / scale - 0.5 per axis; nearest rounds it, linear blends the two "
                 "neighbours, clamped at the edges", fontsize=10)
    return fig


def roi_pool():
    """ROI_POOLING: a region of a 6x6 plane cut into 2x2 bins (Caffe's rounding), each bin's maximum."""
    x = np.array([[3, 1, 4, 1, 5, 9], [2, 6, 5, 3, 5, 8], [9, 7, 9, 3, 2, 3], [8, 4, 6, 2, 6, 4],
                  [3, 3, 8, 3, 2, 7], [9, 5, 0, 2, 8, 8]], np.float32)
    # Corners 0.5 * (2, 1, 9, 8) round half away from zero to (1, 1, 5, 4) (4.5 -> 5, 0.5 -> 1):
    # 5 columns 1..5 and 4 rows 1..4; bins of rows [1, 3), [3, 5) and columns [1, 4), [3, 6).
    got = dmlc.roi_pool(x[None, None], [[0, 2, 1, 9, 8]], 2, 0.5)[0, 0]
    bins = [[((1, 3), (1, 4)), ((1, 3), (3, 6))], [((3, 5), (1, 4)), ((3, 5), (3, 6))]]
    want = np.array([[x[r0:r1, c0:c1].max() for (r0, r1), (c0, c1) in row] for row in bins])
    assert np.array_equal(got, want), got
    plt = _plt()
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.6), gridspec_kw={"width_ratios": [6, 2]})
    colors = [[_PAD] * 6 for _ in range(6)]
    for i, row in enumerate(bins):
        for j, ((r0, r1), (c0, c1)) in enumerate(row):
            for r in range(r0, r1):
                for c in range(c0, c1):
                    colors[r][c] = _PALETTE[2 * i + j]
    _grid(axes[0], [[_fmt(v) for v in r] for r in x], colors,
          "x, region [0, 2, 1, 9, 8] at SpatialScale 0.5 (columns 3 and 4 of rows 1-4 sit in two bins; last colour wins)")
    _grid(axes[1], [[_fmt(v) for v in r] for r in got], [[_PALETTE[0], _PALETTE[1]], [_PALETTE[2], _PALETTE[3]]],
          "roi_pool(x, rois, 2, 0.5)")
    fig.suptitle("corners rounded half away from zero, bins [floor(i*RH/2), ceil((i+1)*RH/2)) + y1: bins may overlap; "
                 "each output is its bin's maximum", fontsize=9)
    return fig


def argminmax():
    """ARGMAX and ARGMIN of a 3x4 array along each axis and over all of it."""
    x = np.array([[3, 9, 1, 4], [7, 2, 9, 0], [5, 6, 8, 2]], np.float32)
    along0, along1 = dmlc.argmax(x, 0), dmlc.argmin(x, 1)
    flat = int(dmlc.argmax(x))
    # The rule: the first index of the greatest (least) element, row-major over the reduced axes.
    assert along0.tolist() == [max(range(3), key=lambda r: (x[r, c], -r)) for c in range(4)]
    assert along1.tolist() == [min(range(4), key=lambda c: (x[r, c], c)) for r in range(3)]
    assert flat == min(k for k in range(12) if x.flat[k] == x.max()) == 1
    assert int(dmlc.argmax(x, select_last_index=True)) == max(k for k in range(12) if x.flat[k] == x.max()) == 6
    plt = _plt()
    fig, axes = plt.subplots(1, 3, figsize=(11, 2.8))
    labels = [[_fmt(v) for v in r] for r in x]
    _grid(axes[0], labels, [[_PALETTE[0] if along0[c] == r else "white" for c in range(4)] for r in range(3)],
          f"argmax(x, 0) = {along0.tolist()}")
    _grid(axes[1], labels, [[_PALETTE[1] if along1[r] == c else "white" for c in range(4)] for r in range(3)],
          f"argmin(x, 1) = {along1.tolist()}")
    _grid(axes[2], labels, [[_PALETTE[2] if r * 4 + c == flat else _PALETTE[3] if r * 4 + c == 6 else "white"
                             for c in range(4)] for r in range(3)],
          "argmax(x) = 1; select_last_index: 6")
    fig.suptitle("the index of the greatest / least element over the reduced axes (row-major over them); "
                 "ties: the first, or the last", fontsize=10)
    return fig


def cumulative():
    """CUMULATIVE_SUMMATION and CUMULATIVE_PRODUCT of a 3x4 array: along the rows, exclusive,
    reversed, and down the columns."""
    x = np.array([[2, 1, 3, 5], [3, 8, 7, 3], [9, 6, 2, 4]], np.float32)
    rows, excl, rev, cols = (dmlc.cumsum(x, 1), dmlc.cumsum(x, 1, exclusive=True), dmlc.cumsum(x, 1, reverse=True),
                             dmlc.cumprod(x, 0))
    # The rule, element by element: sums of the elements before (and at) each position.
    assert rows.tolist() == [[sum(r[:k + 1]) for k in range(4)] for r in x.tolist()]
    assert excl.tolist() == [[sum(r[:k]) for k in range(4)] for r in x.tolist()]
    assert rev.tolist() == [[sum(r[k:]) for k in range(4)] for r in x.tolist()]
    assert cols.tolist() == [[float(np.prod(x[:k + 1, c])) for c in range(4)] for k in range(3)]
    plt = _plt()
    fig, axes = plt.subplots(1, 5, figsize=(15, 2.6))
    white = [["white"] * 4 for _ in range(3)]
    shade = [[_PALETTE[k] for k in range(4)] for _ in range(3)]
    _grid(axes[0], [[_fmt(v) for v in r] for r in x], shade, "x")
    _grid(axes[1], [[_fmt(v) for v in r] for r in rows], white, "cumsum(x, 1)")
    _grid(axes[2], [[_fmt(v) for v in r] for r in excl], white, "cumsum(x, 1, exclusive=True)")
    _grid(axes[3], [[_fmt(v) for v in r] for r in rev], white, "cumsum(x, 1, reverse=True)")
    _grid(axes[4], [[_fmt(v) for v in r] for r in cols], white, "cumprod(x, 0)")
    fig.suptitle("running sums / products along one axis, one rounded step at a time, from the start "
                 "(or the end: reverse); exclusive leaves each element out", fontsize=10)
    return fig


def topk():
    """TOP_K1 of a 3x4 array: the 2 greatest along each row, the 2 least down each column,
    and ties by ascending index."""
    x = np.array([[3, 9, 1, 9], [7, 2, 9, 0], [5, 6, 8, 2]], np.float32)
    v, i = dmlc.top_k(x, 2, 1)
    lv, li = dmlc.top_k(x, 2, 0, largest=False)
    # The rule: indices sorted by value (descending / ascending), equal values by ascending index.
    for r in range(3):
        assert i[r].tolist() == sorted(range(4), key=lambda c: (-x[r, c], c))[:2]
    for c in range(4):
        assert li[:, c].tolist() == sorted(range(3), key=lambda r: (x[r, c], r))[:2]
    assert v.tolist() == np.take_along_axis(x, i, 1).tolist() and i[0].tolist() == [1, 3]
    plt = _plt()
    fig, axes = plt.subplots(1, 3, figsize=(11, 2.8), gridspec_kw={"width_ratios": [4, 2, 4]})
    labels = [[_fmt(val) for val in r] for r in x]
    _grid(axes[0], labels, [[_PALETTE[list(i[r]).index(c)] if c in i[r] else "white" for c in range(4)]
                            for r in range(3)], "x; top_k(x, 2, 1) shaded")
    _grid(axes[1], [[f"{_fmt(v[r, k])} @{i[r, k]}" for k in range(2)] for r in range(3)],
          [[_PALETTE[k] for k in range(2)] for _ in range(3)], "values @ indices")
    _grid(axes[2], [[f"{_fmt(lv[k, c])} @{li[k, c]}" for c in range(4)] for k in range(2)],
          [[_PALETTE[2 + k]] * 4 for k in range(2)], "top_k(x, 2, 0, largest=False)")
    fig.suptitle("the k greatest (least) along one axis, sorted; equal values by ascending index "
                 "(row 0: 9 @1 before 9 @3)", fontsize=10)
    return fig


def nonzero():
    """NONZERO_COORDINATES of a 3x4 array: its non-zero elements (-0.0 is zero, NaN is not)
    numbered in row-major order, and the coordinate rows in that order."""
    x = np.array([[0, 3, 0, -0.0], [np.nan, 0, 0, 2], [0, 0, 5, 0]], np.float32)
    rows = dmlc.nonzero_coordinates(x)
    # The rule, element by element: every (r, c) with x[r, c] != 0, row-major.
    assert rows.tolist() == [[r, c] for r in range(3) for c in range(4) if not x[r, c] == 0]
    plt = _plt()
    fig, axes = plt.subplots(1, 2, figsize=(8, 3), gridspec_kw={"width_ratios": [4, 2]})
    order = {tuple(p): k for k, p in enumerate(rows.tolist())}
    shade = [[_PALETTE[order[(r, c)]] if (r, c) in order else "white" for c in range(4)] for r in range(3)]
    _grid(axes[0], [[_fmt(v) for v in row] for row in x], shade, "x (non-zero elements coloured)")
    _grid(axes[1], [[str(v) for v in row] for row in rows.tolist()], [[_PALETTE[k]] * 2 for k in range(len(rows))],
          "nonzero_coordinates(x)")
    fig.suptitle("one row of coordinates per non-zero element, in row-major order; -0.0 is zero, NaN is not",
                 fontsize=10)
    return fig


def cast():
    """CAST: float32 to int8 and uint8, truncation, saturation and NaN to 0."""
    x = np.array([1.9, -1.9, 300.0, -300.0, np.nan, np.inf, -0.0], np.float32)
    i8, u8 = dmlc.cast(x, np.int8), dmlc.cast(x, np.uint8)

    def rule(v, lo, hi):  # truncate toward zero, saturate, NaN -> 0
        if np.isnan(v):
            return 0
        return int(min(max(np.trunc(v), lo), hi))
    assert i8.tolist() == [rule(v, -128, 127) for v in x.tolist()]
    assert u8.tolist() == [rule(v, 0, 255) for v in x.tolist()]
    plt = _plt()
    fig, axes = plt.subplots(3, 1, figsize=(8, 2.8))
    n = len(x)
    cols = [[_PALETTE[k % len(_PALETTE)] for k in range(n)]]
    _grid(axes[0], [[_fmt(v) for v in x]], cols, "x (float32)")
    _grid(axes[1], [[str(v) for v in i8.tolist()]], cols, "cast(x, int8)")
    _grid(axes[2], [[str(v) for v in u8.tolist()]], cols, "cast(x, uint8)")
    fig.suptitle("float to integer: truncate toward zero, saturate, NaN gives 0", fontsize=10)
    return fig


def fill():
    """FILL_VALUE_CONSTANT and FILL_VALUE_SEQUENCE on a 3x4 output; DIAGONAL_MATRIX1 without an
    input (diagonal_matrix, offset 1) and over one (diagonal_fill, the band [-1, 1))."""
    c = dmlc.fill_constant((3, 4), 7, "float32")
    s = dmlc.fill_sequence((3, 4), 10, -2, "uint8")
    e = dmlc.diagonal_matrix((3, 4), "int32", offset=1, value=7)
    x = np.arange(1, 13, dtype=np.int32).reshape(3, 4)
    b = dmlc.diagonal_fill(x, -1, 1, 0)
    assert np.array_equal(c, np.full((3, 4), 7, np.float32))
    assert s.tolist() == [[(10 - 2 * (r * 4 + k)) % 256 for k in range(4)] for r in range(3)]
    assert np.array_equal(e, 7 * np.eye(3, 4, k=1, dtype=np.int32))
    top = np.arange(4)[None, :] - np.arange(3)[:, None]  # x - y
    assert np.array_equal(b, np.where((top >= -1) & (top < 1), 0, x))
    plt = _plt()
    fig, axes = plt.subplots(1, 4, figsize=(16, 2.6))
    _grid(axes[0], [[_fmt(v) for v in r] for r in c], [[_PALETTE[0]] * 4] * 3, "fill_constant((3, 4), 7, float32)")
    _grid(axes[1], [[str(v) for v in r] for r in s.tolist()], [[_PALETTE[1]] * 4] * 3,
          "fill_sequence((3, 4), 10, -2, uint8)")
    band = [[_PALETTE[2] if -1 <= t < 1 else "white" for t in row] for row in top.tolist()]
    diag = [[_PALETTE[2] if t == 1 else "white" for t in row] for row in top.tolist()]
    _grid(axes[2], [[str(v) for v in r] for r in e.tolist()], diag, "diagonal_matrix((3, 4), offset=1, value=7)")
    _grid(axes[3], [[str(v) for v in r] for r in b.tolist()], band, "diagonal_fill(x, -1, 1, 0): x - y in [-1, 1)")
    fig.suptitle("sequences: element k = start + k * delta (row-major); diagonals: Value where Begin <= x - y < End",
                 fontsize=10)
    return fig


def reverse():
    """REVERSE_SUBSEQUENCES along axis 1 (each row's first L elements reversed; 0 and 1 copy,
    past the end is clamped) and along axis 0 (each column's)."""
    x = np.arange(1, 13, dtype=np.float32).reshape(3, 4)
    rows, cols = np.array([2, 4, 9]), np.array([3, 1, 0, 2])
    y = dmlc.reverse_subsequences(x, rows, 1)
    z = dmlc.reverse_subsequences(x, cols, 0)
    i4, i3 = np.arange(4), np.arange(3)[:, None]
    L = np.minimum(rows, 4)[:, None]
    src_y = np.where(i4 < L, L - 1 - i4, i4)
    src_z = np.where(i3 < cols, cols - 1 - i3, i3)
    assert np.array_equal(y, np.take_along_axis(x, src_y, 1)), y
    assert np.array_equal(z, np.take_along_axis(x, src_z, 0)), z
    plt = _plt()
    fig, axes = plt.subplots(1, 3, figsize=(12, 3.0))
    _grid(axes[0], [[_fmt(v) for v in r] for r in x], [[_PALETTE[c] for c in range(4)] for _ in range(3)], "x (3, 4)")
    _grid(axes[1], [[_fmt(v) for v in r] for r in y], [[_PALETTE[c] if c != j else "white" for j, c in enumerate(r)]
                                                       for r in src_y.tolist()], "lengths [2, 4, 9], axis 1")
    _grid(axes[2], [[_fmt(v) for v in r] for r in z], [[_PALETTE[s] if s != i else "white" for s in r]
                                                       for i, r in enumerate(src_z.tolist())], "lengths [3, 1, 0, 2], axis 0")
    fig.suptitle("out[.., i] = x[.., L - 1 - i] for i < L = min(length, n), else x[.., i] (white: unmoved)", fontsize=10)
    return fig


FIGURES = {
    "depth_space.png": depth_space,
    "padding_modes.png": padding_modes,
    "pooling_windows.png": pooling_windows,
    "max_unpool.png": max_unpool,
    "split_join.png": split_join,
    "tile.png": tile,
    "slice.png": slicing,
    "identity.png": identity,
    "gather.png": gather,
    "roi_pool.png": roi_pool,
    "gather_elements.png": gather_elements,
    "gather_nd.png": gather_nd,
    "resample.png": resample,
    "argminmax.png": argminmax,
    "cumulative.png": cumulative,
    "topk.png": topk,
    "nonzero.png": nonzero,
    "cast.png": cast,
    "fill.png": fill,
    "reverse.png": reverse,
    "one_hot.png": one_hot,
}

FAMILY_FIGURE = {
    "depth_space": "depth_space.png", "padding": "padding_modes.png", "split_join": "split_join.png",
    "max_pooling": "pooling_windows.png", "average_pooling": "pooling_windows.png",
    "lp_pooling": "pooling_windows.png",
    "max_unpooling": "max_unpool.png", "element_wise_identity": "identity.png", "slicing": "slice.png",
    "tiling": "tile.png", "gather": "gather.png", "resample": "resample.png", "roi": "roi_pool.png",
    "argminmax": "argminmax.png", "cumulative": "cumulative.png", "topk": "topk.png", "nonzero": "nonzero.png",
    "cast": "cast.png", "fill": "fill.png", "reverse": "reverse.png",
    "one_hot": "one_hot.png",
}


def generate(outdir):
    """Draws every figure into outdir (each one asserted against its reference first)."""
    plt = _plt()
    os.makedirs(outdir, exist_ok=True)
    for name, make in FIGURES.items():
        fig = make()
        fig.savefig(os.path.join(outdir, name), dpi=110, bbox_inches="tight")
        plt.close(fig)
