"""The ``tabletape`` command: the one place that composes the service and the workers."""
