"""A board map as a figure: zones coloured by terrain, adjacency lines, coast, starting areas.

Takes plain data (no game objects), so the command line and the HTML report can both draw a
map: `zones` is a list of dicts with `name`, `x`, `y`, `terrain`, `coast` (bool) and
`start` (a seat or -1); `edges` a list of (name, name) pairs.
"""
from __future__ import annotations

import base64
import io
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import RegularPolygon  # noqa: E402

# Known terrain names get their usual colours; any other terrain a designer adds takes the
# next colour of the fallback cycle, in the order the terrains are listed.
TERRAIN_COLOURS = {"desert": "#e9c46a", "plains": "#8ab17d", "hills": "#b08968", "mountains": "#adb5bd"}
_FALLBACK = ("#f4a261", "#2a9d8f", "#e76f51", "#6d597a", "#355070")
SEAT_COLOURS = ("#d62828", "#1d4ed8", "#15803d", "#ca8a04", "#7e22ce", "#0f766e")
COAST = "#1e6091"


def terrain_colours(terrains) -> dict:
    """A colour per terrain name, in the order given."""
    out, k = {}, 0
    for t in terrains:
        if t in TERRAIN_COLOURS:
            out[t] = TERRAIN_COLOURS[t]
        else:
            out[t] = _FALLBACK[k % len(_FALLBACK)]
            k += 1
    return out


def _zone_radius(zones) -> float:
    """Half the distance between the two closest zone centres: zones touch but do not overlap."""
    pts = [(z["x"], z["y"]) for z in zones]
    best = None
    for i, (x1, y1) in enumerate(pts):
        for x2, y2 in pts[i + 1:]:
            d = ((x1 - x2) ** 2 + (y1 - y2) ** 2) ** 0.5
            if d > 0 and (best is None or d < best):
                best = d
    return (best or 1.0) / 2


def map_figure(zones: list[dict], edges: list[tuple], terrains, title: str = ""):
    """The matplotlib Figure of one map."""
    colours = terrain_colours(terrains)
    where = {z["name"]: (z["x"], z["y"]) for z in zones}
    r = _zone_radius(zones)
    fig, ax = plt.subplots(figsize=(7.5, 5.6))
    for a, b in edges:
        (x1, y1), (x2, y2) = where[a], where[b]
        ax.plot([x1, x2], [y1, y2], color="#333333", lw=0.7, alpha=0.55, zorder=1)
    for z in zones:
        hexagon = RegularPolygon((z["x"], z["y"]), numVertices=6, radius=r * 1.12, orientation=0,
                                 facecolor=colours[z["terrain"]], alpha=0.9,
                                 edgecolor=COAST if z["coast"] else "white", lw=2.2 if z["coast"] else 0.8,
                                 zorder=0)
        ax.add_patch(hexagon)
        if z["start"] >= 0:
            ax.scatter([z["x"]], [z["y"]], s=260, marker="o", color=SEAT_COLOURS[z["start"] % len(SEAT_COLOURS)],
                       edgecolor="black", zorder=3)
            ax.text(z["x"], z["y"], str(z["start"]), ha="center", va="center", color="white", fontsize=9,
                    fontweight="bold", zorder=4)
        else:
            ax.text(z["x"], z["y"] - r * 0.55, z["name"], ha="center", va="center", fontsize=6, color="#222222",
                    zorder=2)
    handles = [plt.Rectangle((0, 0), 1, 1, color=colours[t]) for t in terrains]
    labels = list(terrains)
    handles += [plt.Rectangle((0, 0), 1, 1, facecolor="none", edgecolor=COAST, lw=2),
                plt.Line2D([], [], marker="o", ls="", color=SEAT_COLOURS[0], markeredgecolor="black")]
    labels += ["coast", "starting area (seat)"]
    ax.legend(handles, labels, loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8, frameon=False)
    xs = [z["x"] for z in zones]
    ys = [z["y"] for z in zones]
    ax.set_xlim(min(xs) - 2 * r, max(xs) + 2 * r)
    ax.set_ylim(min(ys) - 2 * r, max(ys) + 2 * r)
    ax.set_aspect("equal")
    ax.axis("off")
    if title:
        ax.set_title(title)
    fig.tight_layout()
    return fig


SOFTWARE = "balancelab map"     # the PNG's Software text: how `map --out` knows a board it drew


def save_map(zones, edges, terrains, path: str | Path, title: str = "") -> None:
    """Draw one map into a PNG file (a path or an open binary file)."""
    fig = map_figure(zones, edges, terrains, title)
    fig.savefig(path, dpi=110, format="png", metadata={"Software": SOFTWARE})
    plt.close(fig)


def drew_map(path: Path) -> bool:
    """Whether the file at `path` is a board `save_map` drew."""
    from PIL import Image, UnidentifiedImageError
    try:
        with Image.open(path) as im:
            return im.format == "PNG" and im.info.get("Software") == SOFTWARE
    except (OSError, UnidentifiedImageError):
        return False


def map_png(zones, edges, terrains, title: str = "") -> bytes:
    """The PNG bytes of one map (for embedding in an HTML report)."""
    buf = io.BytesIO()
    fig = map_figure(zones, edges, terrains, title)
    fig.savefig(buf, format="png", dpi=90)
    plt.close(fig)
    return buf.getvalue()


def map_data_uri(zones, edges, terrains, title: str = "") -> str:
    """One map as a `data:image/png;base64,` URI (the HTML report embeds its figures)."""
    return "data:image/png;base64," + base64.b64encode(map_png(zones, edges, terrains, title)).decode("ascii")
