"""Whot!'s learned player: features of a view (`features`), self-play on the batched engine for
`parlour train` (`selfplay`), the `learned` bot that plays the shipped weights in NumPy (`bot`),
and the weights themselves with their cards (`weights/`). docs/training.md.
"""
