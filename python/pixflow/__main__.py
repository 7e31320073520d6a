"""python -m pixflow <app>: see pixflow.apps."""
import sys

from .apps import main

sys.exit(main())
