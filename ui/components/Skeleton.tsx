/** Grey placeholder lines shown while content loads (spec 000 §2: every screen shows skeletons). */
export function SkeletonText({ lines = 3 }: { lines?: number }) {
  return (
    <div className="skeleton-text" aria-hidden="true">
      {Array.from({ length: lines }, (_, index) => (
        <span key={index} className="skeleton skeleton--line" />
      ))}
    </div>
  );
}

/** A placeholder for a whole form page: title plus cards of lines. */
export function SkeletonPage({ cards = 2, label }: { cards?: number; label: string }) {
  return (
    <div className="page page--narrow" role="status" aria-busy="true" aria-label={label}>
      <div className="page__header">
        <span className="skeleton skeleton--title" aria-hidden="true" />
      </div>
      {Array.from({ length: cards }, (_, index) => (
        <div key={index} className="card">
          <SkeletonText lines={4} />
        </div>
      ))}
    </div>
  );
}
