"""Training code (needs torch + ultralytics from requirements-train.txt; never imported at run time)."""
