/** The badge beside a verified seller's name (spec: "A verified badge shows next to the seller name"). */
export function VerifiedBadge() {
  return (
    <span className="badge badge-info badge-sm gap-1" title="Verified seller">
      <svg aria-hidden="true" viewBox="0 0 20 20" className="h-3 w-3 fill-current">
        <path d="M8 14.2 3.8 10l1.4-1.4L8 11.4l6.8-6.8 1.4 1.4z" />
      </svg>
      verified
    </span>
  );
}
