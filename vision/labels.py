"""Class names shared by training and inference (ASCII only)."""
RANK_CLASSES = list("23456789TJQKA") + ["none"]
SUIT_CLASSES = list("SHDC")
