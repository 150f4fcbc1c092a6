"""reports: metrics, tables, figures and the HTML balance report.

Takes result frames (polars) and a manifest (dict); imports none of balancelab's other
packages, so a report can be rebuilt from a run folder alone. Two layers:

- reports.measures: tables in, tables out (intervals, impact, game flow, luck, pairing,
  sequential tests, ratings, targets, the verdict's facts);
- reports.page: what a person reads (the HTML pages and their templates, figures, sentences);
  it imports measures, never the reverse.
"""
