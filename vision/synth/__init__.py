"""Seeded synthetic scenes of playing cards with corner-index labels (training data only)."""
