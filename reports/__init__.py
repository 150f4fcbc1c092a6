"""reports: metrics, tables, figures and the HTML balance report.

Takes result frames (polars) and a manifest (dict); imports none of balancelab's other
packages, so a report can be rebuilt from a run folder alone.
"""
