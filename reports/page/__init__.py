"""The page: HTML reports (jinja2 templates in templates/), figures (matplotlib, Agg canvas)
and the sentences a designer reads, all built from reports.measures tables."""
