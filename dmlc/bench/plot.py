"""``dmlc bench --plot FILE.png``: the benchmark's table as a picture.

One panel per operator (the benchmark's workload groups), one row of bars per workload:
each implementation's throughput in GB/s (bytes read plus bytes written, as the table's
GB/s column), dmlc first.  Two marks per row give the yardsticks: the single-threaded copy
of the same bytes (``memcpy``) and, where PyTorch is installed, the same bytes copied on
every thread (``torch.copy_``: the machine's copy wall, the most a multi-threaded operator
can reach).  matplotlib is optional: the ``plot`` extra (``pip install "dmlc[plot]"``).
"""
import math

from dmlc.bench import BASELINES

EXTRA = "plot"


class PlotUnavailable(RuntimeError):
    """matplotlib is not installed."""


def require():
    """Imports matplotlib's non-interactive backend, or raises PlotUnavailable naming the extra."""
    try:
        import matplotlib
    except ImportError:
        raise PlotUnavailable(f'--plot needs matplotlib, which is not installed: pip install "dmlc[{EXTRA}]" '
                              f'(or pip install matplotlib)') from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


_COLORS = {"dmlc": "#1f77b4", "dmlc out=": "#6baed6", "numpy": "#ff7f0e", "numpy out=": "#fdae6b", "torch": "#d62728",
           "torch out=": "#ff9896", "onnxruntime": "#2ca02c"}


def _color(name, seen):
    """One colour per implementation: dmlc's blues, NumPy's oranges, PyTorch's reds, ONNX
    Runtime's green, then tab20b's twenty colours (none of those hues) in the order the
    others appear."""
    if name in _COLORS:
        return _COLORS[name]
    if name not in seen:
        import matplotlib
        palette = matplotlib.colormaps["tab20b"].colors
        seen[name] = palette[(len(seen) * 7) % len(palette)]  # (a step of 7 walks all 20, neighbours apart)
    return seen[name]


def _wrap(label, width=24):
    """A workload label on lines of about width characters (the panels sit side by side)."""
    import textwrap
    return "\n".join(textwrap.wrap(label, width)) or label


def figure(rows, title=None):
    """The figure for rows of ``dmlc.bench.run``: (group, label, implementation, seconds, bytes)."""
    plt = require()
    groups = {}
    for group, label, name, t, nbytes in rows:
        groups.setdefault(group, {}).setdefault(label, {})[name] = nbytes / t / 1e9
    if not groups:
        raise ValueError("no benchmark results to plot (did --filter match nothing?)")
    ncols = min(4, len(groups))
    nrows = math.ceil(len(groups) / ncols)
    heights = []
    for r in range(nrows):
        sizes = [sum(len([n for n in impls if n not in BASELINES]) + 1 for impls in groups[g].values())
                 for g in list(groups)[r * ncols:(r + 1) * ncols]]
        heights.append(max(sizes))
    fig, axes = plt.subplots(nrows, ncols, figsize=(6.5 * ncols, 1.5 + 0.17 * sum(heights) + 1.0 * nrows),
                             gridspec_kw={"height_ratios": heights}, squeeze=False)
    others = {}
    handles = {}
    for ax, (group, workloads) in zip(axes.flat, groups.items()):
        y = 0
        ticks, labels = [], []
        for label, impls in workloads.items():
            names = [n for n in impls if n not in BASELINES]
            names.sort(key=lambda n: (not n.startswith("dmlc"), n))
            top = y
            for n in names:
                h = ax.barh(y, impls[n], height=0.8, color=_color(n, others))
                handles.setdefault(n, h)
                y += 1
            span = (top - 0.5, y - 0.5)
            if "memcpy" in impls:
                handles.setdefault("1-thread copy (memcpy)",
                                   ax.vlines(impls["memcpy"], *span, colors="black", linewidth=2))
            if "torch.copy_" in impls:
                handles.setdefault("copy wall (torch.copy_, all threads)",
                                   ax.vlines(impls["torch.copy_"], *span, colors="black", linestyles="dashed",
                                             linewidth=1.5))
            ticks.append((top + y - 1) / 2)
            labels.append(label)
            y += 1
        ax.set_yticks(ticks, [_wrap(t) for t in labels], fontsize=8)
        ax.invert_yaxis()
        ax.set_title(group, fontsize=10, loc="left")
        ax.set_xlabel("GB/s (read + written; more is faster)", fontsize=8)
        ax.tick_params(axis="x", labelsize=8)
        ax.grid(axis="x", alpha=0.3)
    for ax in list(axes.flat)[len(groups):]:
        ax.axis("off")
    legend_rows = math.ceil(len(handles) / 6)
    height = fig.get_size_inches()[1]
    top = 1 - (0.45 + 0.2 * legend_rows) / height        # room for the title and the legend
    fig.legend(list(handles.values()), list(handles), loc="lower center", ncol=6, fontsize=9,
               bbox_to_anchor=(0.5, top), frameon=False)
    if title:
        fig.suptitle(title, y=1 - 0.05 / height, fontsize=12, va="top")
    fig.tight_layout(rect=(0, 0, 1, top))
    return fig


def save(rows, path, title=None):
    """Writes the plot of rows to path (a .png, or any format matplotlib knows by the suffix)."""
    plt = require()
    fig = figure(rows, title)
    fig.savefig(path, dpi=100, bbox_inches="tight")
    plt.close(fig)
