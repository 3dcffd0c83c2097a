"""Exact truths: the certified worst-case central epsilon of shuffled binary RR and of k-RR on small inputs."""
