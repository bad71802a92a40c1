import { encode } from 'uqr';

/** How many light modules surround the code: what readers need to find it. */
const QUIET_ZONE = 4;

/**
 * `text` as a QR code, drawn by the page (one path of dark squares): nothing leaves the browser, unlike an image
 * made by a service. `label` names it for screen readers.
 */
export function QrCode({ text, label, size = 200 }: { text: string; label: string; size?: number }) {
  const { data, size: modules } = encode(text, { ecc: 'M', border: 0 });
  const path = data.flatMap((row, y) => row.flatMap((dark, x) => (dark ? [`M${x + QUIET_ZONE} ${y + QUIET_ZONE}h1v1h-1z`] : []))).join('');
  const extent = modules + 2 * QUIET_ZONE;
  return (
    <svg className="dv-bo-qr" role="img" aria-label={label} viewBox={`0 0 ${extent} ${extent}`} width={size} height={size} shapeRendering="crispEdges">
      <rect width={extent} height={extent} fill="#ffffff" />
      <path d={path} fill="#000000" />
    </svg>
  );
}
