/** Draws the back of a phone in its colour, with the camera layout of its brand, as an SVG. */
import type { CategoryCode } from '../../shared/constants';

const COLORS: Record<string, string> = {
  Black: '#1f2937',
  Midnight: '#1e293b',
  Graphite: '#4b5563',
  White: '#f1f5f9',
  Starlight: '#efe8da',
  Silver: '#cbd5e1',
  Gold: '#d6b07a',
  Blue: '#2563eb',
  'Sierra Blue': '#8fb8de',
  Red: '#dc2626',
  Green: '#15803d',
  Purple: '#7c3aed',
  Pink: '#f2a7c3',
  Orange: '#f97316',
};

export const PHONE_COLORS = Object.keys(COLORS);

const lens = (cx: number, cy: number, r: number) =>
  `<circle cx="${cx}" cy="${cy}" r="${r}" fill="#0b1020" stroke="#94a3b8" stroke-width="3"/>` +
  `<circle cx="${cx - r / 3}" cy="${cy - r / 3}" r="${r / 4}" fill="#475569"/>`;

const CAMERAS: Record<CategoryCode, string> = {
  '01': `<rect x="318" y="82" width="96" height="96" rx="26" fill="#00000022"/>${lens(342, 106, 15)}${lens(342, 154, 15)}${lens(390, 130, 15)}`,
  '02': `${lens(336, 104, 16)}${lens(336, 150, 16)}${lens(336, 196, 16)}`,
  '03': `<rect x="318" y="82" width="110" height="110" rx="18" fill="#0b102033"/>${lens(348, 112, 17)}${lens(398, 112, 17)}${lens(348, 162, 17)}`,
  '04': `<rect x="320" y="84" width="58" height="120" rx="29" fill="#0b102033"/>${lens(349, 114, 16)}${lens(349, 172, 16)}`,
  '05': `<circle cx="400" cy="150" r="58" fill="#0b102033"/>${lens(400, 122, 16)}${lens(372, 170, 16)}${lens(428, 170, 16)}`,
};

export function phoneSvg(categoryId: CategoryCode, color: string): string {
  const body = COLORS[color] ?? '#64748b';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600" viewBox="0 0 800 600">
<defs>
<linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#eef2ff"/><stop offset="1" stop-color="#e0f2fe"/></linearGradient>
<linearGradient id="shine" x1="0" y1="0" x2="1" y2="0"><stop offset="0" stop-color="#ffffff" stop-opacity="0.28"/><stop offset="0.5" stop-color="#ffffff" stop-opacity="0"/><stop offset="1" stop-color="#000000" stop-opacity="0.12"/></linearGradient>
</defs>
<rect width="800" height="600" fill="url(#bg)"/>
<ellipse cx="400" cy="560" rx="150" ry="16" fill="#0f172a" opacity="0.15"/>
<rect x="296" y="60" width="208" height="480" rx="36" fill="${body}" stroke="#0f172a" stroke-opacity="0.25" stroke-width="3"/>
<rect x="296" y="60" width="208" height="480" rx="36" fill="url(#shine)"/>
${CAMERAS[categoryId]}
<circle cx="400" cy="330" r="18" fill="#ffffff" opacity="0.18"/>
</svg>`;
}
