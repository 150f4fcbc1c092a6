"""Measures: result frames in, tables (and plain dicts of figures) out, each estimate with its
95% interval. Nothing here draws, renders or imports reports.page."""
