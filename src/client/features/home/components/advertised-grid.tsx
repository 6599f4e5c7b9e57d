import { formatDollars, storageLabel } from '@client/lib/format';
import { srcSetOf } from '@shared/images';
import { TEXT } from '@shared/texts';
import { Link } from 'react-router';
import { useAdvertised } from '../api/get-advertised';

/** Shown only when at least one advertised phone exists. */
export function AdvertisedGrid() {
  const { data: items } = useAdvertised();
  if (items.length === 0) return null;
  return (
    <section aria-labelledby="advertised-heading" className="space-y-4">
      <h2 id="advertised-heading" className="text-2xl font-bold">
        {TEXT.home.advertised}
      </h2>
      <ul className="grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {items.map((item) => (
          <li key={item._id} className="card bg-base-100 shadow-sm ring-1 ring-base-300">
            <figure className="bg-base-200">
              <img
                src={item.image}
                srcSet={srcSetOf(item.image)}
                sizes="(min-width: 1024px) 360px, (min-width: 640px) 50vw, 100vw"
                alt={`${item.modelName} in ${item.feature.color}`}
                width={800}
                height={600}
                loading="lazy"
                decoding="async"
                className="aspect-[4/3] w-full object-cover"
              />
            </figure>
            <div className="card-body gap-1">
              <h3 className="card-title">{item.modelName}</h3>
              <p className="text-xl font-bold text-primary">{formatDollars(item.price)}</p>
              <p className="text-sm">
                {item.feature.ram} RAM · {storageLabel(item.feature.storage)} · {item.feature.color}{' '}
                · {item.feature.battery} mAh
              </p>
              <p className="text-sm text-current/80">
                {item.location} · used {item.timeUsed} months
              </p>
              <div className="card-actions mt-2 justify-end">
                <Link to={`/product/${item.advertiseId}`} className="btn btn-primary btn-sm">
                  See {item.modelName}
                </Link>
              </div>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
