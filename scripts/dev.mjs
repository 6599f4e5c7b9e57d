// `npm run dev`: the API server with reload on :3001 and Vite with hot reload on :3000, proxying /api to it.
import { spawn } from 'node:child_process';

const api = spawn('npx', ['tsx', 'watch', '--clear-screen=false', 'src/server/server.ts'], {
  stdio: 'inherit',
  env: { ...process.env, PORT: '3001', HOST: '127.0.0.1', NODE_ENV: 'development' },
});
const web = spawn('npx', ['vite', '--port', process.env.PORT ?? '3000', '--strictPort'], {
  stdio: 'inherit',
  env: { ...process.env, API_PORT: '3001' },
});
const stop = () => {
  api.kill();
  web.kill();
};
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, stop);
api.on('exit', stop);
web.on('exit', stop);
