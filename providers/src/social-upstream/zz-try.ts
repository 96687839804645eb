import { startSocialUpstreamSimulator } from './index.js';
const s = await startSocialUpstreamSimulator({ host: '127.0.0.1', port: 0, slowDelayMs: 100 });
console.log(s.url);
for (const p of [
  '/api/v1/users/web_profile_info/?username=mina.kim',
]) { const r = await fetch(s.url + p); console.log(r.status, JSON.stringify(await r.json()).slice(0, 1500)); }
const prof: any = await (await fetch(s.url + '/api/v1/users/web_profile_info/?username=mina.kim')).json();
const id = prof.data.user.id;
for (const p of [`/api/v1/users/${id}/info/`, `/api/v1/feed/user/${id}/?count=2`, `/api/v1/friendships/${id}/followers/?count=3`, `/api/v1/feed/reels_media/?reel_ids=${id}`, `/api/v1/highlights/${id}/highlights_tray/`, `/api/v1/live/web_info/?target_user_id=${id}`, `/api/v1/users/${id}/about_this_account/`, `/web/search/topsearch/?query=coffee`, `/api/v1/guides/user/${id}/`]) {
  const r = await fetch(s.url + p); console.log(p, r.status, JSON.stringify(await r.json()).slice(0, 1200));
}
await s.close();
