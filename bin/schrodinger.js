#!/usr/bin/env node
'use strict';
// A closed pipe (`schrodinger ... | head`) ends the run quietly.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});
const cli = require('../dist/cli.js');
// Ctrl-C (and SIGTERM, SIGHUP) stops the tests, containers and scratch folders of the run first.
cli.exitCleanlyOnSignals();
cli
  .main(process.argv.slice(2))
  .then((code) => {
    process.exitCode = code;
  });
