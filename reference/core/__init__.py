"""The ground floor of the reference: typed errors, the certified result type, outward rounding, parameter ranges and their checks."""
