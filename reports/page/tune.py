"""The `balancelab tune` report section: before/after table, search trace, sensitivity.

Takes plain dicts (tune.json and the evaluation rows); imports none of our other packages.
"""
from __future__ import annotations

import base64
import html
import io
import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

NAMES = {"faction_gap": "largest faction gap (points)", "seat_gap": "largest seat gap (points)",
         "entity_impact": "largest entity impact (points)", "rounds": "mean rounds",
         "first_seat": "first-seat advantage (points)"}


def _f(x, d=2) -> str:
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{d}f}"


def _ci(v) -> str:
    return f"{_f(v[0])} [{_f(v[1])}, {_f(v[2])}]"


def _goal(t) -> str:
    return f"in [{t[0]}, {t[1]}]" if isinstance(t, (list, tuple)) else f"&le; {t}"


def _trace_png(trace: list[dict]) -> str:
    fig, ax = plt.subplots(figsize=(6, 2.6), dpi=100)
    ax.step([r["games"] for r in trace], [r["best_shortfall"] for r in trace], where="post")
    ax.set_xlabel("games played by the search")
    ax.set_ylabel("best shortfall so far")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode()


def decided_words(record: dict) -> str:
    """How a proof until decided settled one target: after how many games, by which interval."""
    if record["kind"] != "95% confidence sequence":
        return f"fixed count: judged at the cap, {record['games']:,} games (no confidence sequence)"
    if record["decision"] == "undecided at the cap":
        return f"undecided at the cap ({record['games']:,} games)"
    return f"decided after {record['games']:,} games"


def decided_headline(proof: dict) -> str:
    """The games a proof until decided played, its cap and its intervals, in one phrase."""
    u = proof["until_decided"]
    settled = all(r["decision"] != "undecided at the cap" for r in u["targets"].values())
    games = (f"decided after {u['games']:,} fresh games (seed {proof['seed']}, at most {u['cap']:,}" if settled else
             f"on {u['games']:,} fresh games, the cap (seed {proof['seed']}")
    return games + "; 95% confidence sequences, valid wherever the proof stopped)"


def better(target, original: float, change: tuple) -> str:
    """Is the proposal better than the current data on one target: "better" (the paired interval
    lies wholly on the side that moves towards the target), "worse" (wholly on the other side) or
    "no clearer than the current data"."""
    d, lo, hi = change
    if isinstance(target, list):
        towards = -1 if original > target[1] else 1 if original < target[0] else 0
    else:
        towards = -1 if original > target else 0
    if towards == 0 or lo != lo:
        return "no clearer than the current data"
    if (hi < 0 if towards < 0 else lo > 0):
        return "better"
    if (lo > 0 if towards < 0 else hi < 0):
        return "worse"
    return "no clearer than the current data"


def not_met_lines(summary: dict) -> list[str]:
    """Not met, said plainly: per target, the best candidate against the current data (the paired
    difference on the same fresh games), and whether anything within the bounds helps at all."""
    p = summary["proof"]
    against = p.get("against_original") or {}
    lines, helps = [], False
    for t, target in summary["targets"].items():
        if t not in against:
            continue
        d, lo, hi = against[t]
        word = better(target, p["original"]["values"][t][0], (d, lo, hi))
        helps |= word == "better"
        lines.append(f"  {t}: proposal - original {d:+.2f} [{lo:+.2f}, {hi:+.2f}] (paired, the same fresh games): {word}")
    u = p.get("until_decided")
    open_ = [t for t, r in (u["targets"] if u else {}).items() if r["decision"] == "undecided at the cap"]
    if open_:
        lines.append(f"undecided at the cap: {', '.join(open_)} (the 95% confidence sequence still straddles the "
                     f"target after {u['games']:,} games); counted as not met")
    if summary["diff"] and not helps:
        lines.append("not met, and nothing within the bounds helps: the best candidate is no clearer than the current "
                     "data; nothing is claimed")
    elif summary["diff"]:
        lines.append("not met: the best candidate is better than the current data but misses the target; nothing "
                     "more is claimed")
    else:
        lines.append("not met, and nothing within the bounds helps: no change beats the current data; nothing is "
                     "claimed")
    return lines


def tune_section(summary: dict, rows: list[dict]) -> str:
    """One HTML <section> (no page shell), for a report or a page of its own."""
    p = summary["proof"]
    e = html.escape
    out = ["<section class='tune'>", "<h2>Tuning proposal</h2>"]
    diff = "; ".join(summary["diff"]) or "no change"
    if "until_decided" in p:
        out.append(f"<p><b>{e(diff)}</b>: targets <b>{e(summary['verdict'].upper())}</b>, {e(decided_headline(p))}; "
                   "fresh games, never used by the search.</p>")
    else:
        out.append(f"<p><b>{e(diff)}</b>: targets <b>{e(summary['verdict'].upper())}</b> on {p['games']:,} fresh "
                   f"games (seed {p['seed']}, never used by the search).</p>")
    if summary["verdict"] != "met":
        out.append("<p>" + "<br>".join(e(line.strip()) for line in not_met_lines(summary)) + "</p>")
    u = p.get("until_decided")
    out.append(f"<h3>Before and after ({'95% confidence sequences' if u else '95% intervals'}, fresh games)</h3>"
               "<table><tr><th>target</th><th>goal</th><th>original</th><th>proposal</th><th>met</th>"
               + ("<th>decided</th>" if u else "") + "</tr>")
    for t, goal in summary["targets"].items():
        out.append(f"<tr><td>{e(NAMES.get(t, t))}</td><td>{_goal(goal)}</td><td>{_ci(p['original']['values'][t])}</td>"
                   f"<td>{_ci(p['proposal']['values'][t])}</td><td>{'yes' if p['proposal']['met'][t] else 'no'}</td>"
                   + (f"<td>{e(decided_words(u['targets'][t]))}</td>" if u else "") + "</tr>")
    out.append("</table>")
    trace = summary.get("trace") or []
    if trace:
        out.append("<h3>Search trace: best so far against games played</h3>")
        out.append(f"<img alt='search trace' src='data:image/png;base64,{_trace_png(trace)}'>")
        out.append("<table><tr><th>games</th><th>stage (changes)</th><th>rung games</th><th>candidates</th>"
                   "<th>best shortfall</th><th>best meets</th></tr>")
        for r in trace:
            out.append(f"<tr><td>{r['games']:,}</td><td>{r['stage']}</td><td>{r['rung_games']:,}</td>"
                       f"<td>{r['candidates']}</td><td>{_f(r['best_shortfall'])}</td><td>{'yes' if r['best_met'] else 'no'}</td></tr>")
        out.append("</table>")
    sens = p.get("sensitivity") or []
    if sens:
        at = f", at the stopped count of {p['games']:,} games" if u else ""
        out.append(f"<h3>Sensitivity: one step either side of the proposal (paired, same fresh games{at})</h3>"
                   "<table><tr><th>variable</th><th>step</th><th>value</th>"
                   + "".join(f"<th>&Delta; {e(NAMES.get(t, t))}</th>" for t in summary["targets"]) + "</tr>")
        for s in sens:
            out.append(f"<tr><td>{e(s['variable'])}</td><td>{e(s['direction'])}</td><td>{e(str(s['value']))}</td>"
                       + "".join(f"<td>{_ci(s['change'][t])}</td>" for t in summary["targets"]) + "</tr>")
        out.append("</table>")
    out.append(f"<p>{summary['candidates']} candidates evaluated in {len(rows)} rungs, "
               f"{summary['search_games']:,} games ({e(summary['stopped'])}).</p></section>")
    return "\n".join(out)


def write_tune_report(summary: dict, rows: list[dict], path) -> None:
    """A self-contained HTML page holding the tuning section (written to a temp name, then renamed)."""
    page = ("<!doctype html><html><head><meta charset='utf-8'><title>balancelab tune</title><style>"
            "body{font-family:sans-serif;max-width:70em;margin:2em auto}td,th{padding:2px 8px;text-align:right}"
            "th{background:#eee}</style></head><body>" + tune_section(summary, rows) + "</body></html>")
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(page, encoding="utf-8")
    tmp.replace(path)
