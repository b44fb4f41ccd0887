"""What runs Listbuilder: the `listbuilder` command line (`cli.py`, with `db.py` and
`worker.py` for its `db` and `worker` groups), and serving it (`server.py`: gunicorn, with
nginx in front from `front/`). Nothing below imports this package."""
