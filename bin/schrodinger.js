#!/usr/bin/env node
'use strict';
// A closed pipe (`schrodinger ... | head`) ends the run quietly.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});
require('../dist/cli.js')
  .main(process.argv.slice(2))
  .then((code) => {
    process.exitCode = code;
  });
