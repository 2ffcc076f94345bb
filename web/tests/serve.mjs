// Starts `collide2d serve --port 0 DIR` for a browser test (the playground's and the npm
// package's example page) and resolves with the server process and the address it prints.
import { spawn } from "node:child_process";

export function serve(bin, dir) {
  return new Promise((resolveServer, reject) => {
    const server = spawn(bin, ["serve", "--port", "0", dir], { stdio: ["ignore", "pipe", "inherit"] });
    server.on("error", reject);
    server.on("exit", (code) => reject(new Error(`collide2d serve exited with ${code}`)));
    let out = "";
    server.stdout.on("data", (chunk) => {
      out += chunk;
      const match = out.match(/at (http:\/\/127\.0\.0\.1:\d+\/)/);
      if (match) resolveServer({ server, url: match[1] });
    });
  });
}
