"""Data files shared by the whole companion (dice faces); a package so installs ship them."""
