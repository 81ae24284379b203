// ink crashes when bundled with DEV set (it tries to reach react-devtools); drop it before anything loads.
delete process.env['DEV'];
await import('./main.js');
