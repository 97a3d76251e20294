"""Operations support, the lowest layer of the service: settings from the environment, structured logs,
Prometheus metrics, infrastructure faults (503s) and the warm-up of lazily computed values."""
