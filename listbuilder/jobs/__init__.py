"""Background jobs: prints laid out by `listbuilder worker` processes, apart from the web.

`broker` picks the queue's storage from the settings every process shares (Redis when a Redis
URL is set, else the database itself); `prints` is the print task and the table a player's
place in line is read from; `worker` runs Huey's consumer for them. Nothing here imports
Flask: a worker is a plain process with a database URL.
"""
