"""Quality against overhead as a small SVG (written here: no plotting library to carry).

Two panels share the quality axis: context tokens handed over per question, and retrieval
latency per question. Up and to the left is better.

Colours are classes of one `<style>` element: light by default, dark where the viewer asks for dark
(`prefers-color-scheme`, which browsers honour; Qt's SVG renderer reads the light rules and ignores
the query). The app shows a report's plot in its own palette's colours with `themed` (a transparent
background, the palette's text), so it is never a white picture in a dark window.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from memvault.core.bench.summary import Summary

WIDTH, HEIGHT, PANEL, MARGIN = 760, 370, 340, 50


@dataclass(frozen=True)
class Colours:
    background: str  # "none": transparent, the page shows through
    text: str
    grid: str
    frame: str
    series: tuple[str, ...]  # one per condition, each readable as text on the background


LIGHT = Colours("white", "#1f2328", "#e5e7eb", "#8b949e", ("#4b5563", "#b45309", "#1d4ed8", "#047857", "#7e22ce"))
DARK = Colours("#17191b", "#e8e8e8", "#33383d", "#6e7681", ("#9ca3af", "#f59e0b", "#60a5fa", "#34d399", "#c084fc"))
COLOURS = LIGHT.series  # the conditions' colours in a light picture
_STYLE = re.compile(r"<style>.*?</style>", re.DOTALL)


def rules(colours: Colours) -> str:
    """The style rules that colour a plot (a class per part and per condition)."""
    parts = [
        f".bg{{fill:{colours.background}}}",
        f"text{{fill:{colours.text}}}",
        f".grid{{stroke:{colours.grid}}}",
        f".frame{{fill:none;stroke:{colours.frame}}}",
    ]
    parts += [f".c{i},text.c{i}{{fill:{colour}}}" for i, colour in enumerate(colours.series)]
    return " ".join(parts)


def themed(svg_text: str, colours: Colours) -> str:
    """The same plot in other colours (its style element replaced); a plot without one is returned as it is."""
    return _STYLE.sub(lambda _match: f"<style>{rules(colours)}</style>", svg_text, count=1)


def svg(summaries: Sequence[Summary]) -> str:
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="11">',
        f"<style>{rules(LIGHT)} @media (prefers-color-scheme: dark) {{ {rules(DARK)} }}</style>",
        f'<rect class="bg" width="{WIDTH}" height="{HEIGHT}"/>',
        f'<text x="{WIDTH / 2}" y="16" text-anchor="middle" font-size="13">'
        "Quality against overhead (synthetic data set)</text>",
    ]
    panels = (
        ("context tokens per question", [s.tokens_per_question for s in summaries]),
        ("retrieval latency per question (ms)", [s.latency_ms_mean for s in summaries]),
    )
    for index, (label, xs) in enumerate(panels):
        parts += _panel(index * (PANEL + 40) + MARGIN, label, xs, [s.quality for s in summaries], summaries)
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _panel(left: float, label: str, xs: list[float], ys: list[float], summaries: Sequence[Summary]) -> list[str]:
    top, size = 34.0, PANEL - MARGIN - 10
    x_max = _nice(max(xs, default=0.0))
    bottom = top + size

    def px(x: float) -> float:
        return left + (x / x_max) * size

    def py(y: float) -> float:
        return bottom - y * size

    out = [
        f'<text x="{left + size / 2}" y="{bottom + 32}" text-anchor="middle">{escape(label)}</text>',
        f'<text x="{left - 34}" y="{top + size / 2}" text-anchor="middle" '
        f'transform="rotate(-90 {left - 34} {top + size / 2})">quality (0..1)</text>',
    ]
    for step in range(5):
        fx, fy = x_max * step / 4, step / 4
        out.append(f'<text x="{px(fx):.1f}" y="{bottom + 14}" text-anchor="middle">{fx:g}</text>')
        out.append(f'<text x="{left - 6}" y="{py(fy) + 4:.1f}" text-anchor="end">{fy:g}</text>')
        out.append(f'<line class="grid" x1="{left}" x2="{left + size}" y1="{py(fy):.1f}" y2="{py(fy):.1f}"/>')
    out.append(f'<rect class="frame" x="{left}" y="{top}" width="{size}" height="{size}"/>')
    for index, (x, y, s) in enumerate(zip(xs, ys, summaries, strict=True)):
        series = f"c{index % len(LIGHT.series)}"
        out.append(f'<circle class="{series}" cx="{px(x):.1f}" cy="{py(y):.1f}" r="5"/>')
        anchor = "end" if px(x) > left + size * 0.7 else "start"
        shift = -8 if anchor == "end" else 8
        out.append(
            f'<text class="{series}" x="{px(x) + shift:.1f}" y="{py(y) - 8:.1f}" text-anchor="{anchor}">'
            f"{escape(s.condition)} ({y:.2f})</text>"
        )
    return out


def _nice(value: float) -> float:
    """A round axis end at or above `value`."""
    if value <= 0:
        return 1.0
    step = 10.0 ** len(str(int(value)))  # the next power of ten
    for fraction in (0.1, 0.2, 0.25, 0.5, 1.0):
        if value <= step * fraction:
            return step * fraction
    return float(step)
