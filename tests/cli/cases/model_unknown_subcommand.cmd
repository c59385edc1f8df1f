model frobnicate
