import { Field, TextField } from '@client/components/ui/field';
import { Modal } from '@client/components/ui/modal';
import { signInPathFrom, signUpPathFrom } from '@client/lib/auth/redirect';
import { useAuth } from '@client/lib/auth/use-auth';
import { toastError } from '@client/lib/feedback';
import { formatDollars } from '@client/lib/format';
import { queryRoots } from '@client/lib/query-keys';
import { toast } from '@client/lib/toast';
import { toastWithLink } from '@client/lib/toast-with-link';
import type { Product } from '@shared/entities';
import { TEXT } from '@shared/texts';
import { useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate } from 'react-router';
import { bookProduct } from '../api/book-product';
import { phoneActionPath } from '../return-path';
import { CATALOG_TEXT } from '../texts';

type Values = { location: string; number: string };

/** The booking modal (spec section 2): a sign-in prompt, or the booking form. */
export function BookingModal({ product, onClose }: { product: Product; onClose: () => void }) {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const here = useLocation();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<Values>({ mode: 'onSubmit', reValidateMode: 'onChange' });

  if (!user) {
    // Signing in (or up) comes back to this phone with its booking form open.
    const back = phoneActionPath(here, product._id, 'book');
    return (
      <Modal
        open
        onClose={onClose}
        title={TEXT.booking.loginPrompt}
        actions={
          <>
            <button type="button" className="btn" onClick={onClose}>
              {TEXT.booking.cancel}
            </button>
            <Link to={signUpPathFrom(back)} className="btn btn-outline btn-primary">
              {CATALOG_TEXT.signUp}
            </Link>
            <Link to={signInPathFrom(back)} className="btn btn-primary">
              {TEXT.nav.signIn}
            </Link>
          </>
        }
      >
        {null}
      </Modal>
    );
  }

  const onSubmit = async ({ location, number }: Values) => {
    try {
      const booked = await bookProduct({ productId: product._id, location, number });
      if (!booked.acknowledged) toast.error(TEXT.toast.alreadyBooked);
      else if ('insertedId' in booked && booked.insertedId)
        confirmWithPayLink(`/dashboard/payment/${booked.insertedId}`);
      else toast.success(TEXT.toast.bookingConfirmed);
      // The card marks the phone booked, and My Orders lists it.
      await queryClient.invalidateQueries({ queryKey: queryRoots.orders });
    } catch (error) {
      toastError(error, TEXT.toast.alreadyBooked);
    }
    onClose();
  };

  /** The spec's confirmation, and the way straight on to pay. */
  const confirmWithPayLink = (to: string) =>
    toastWithLink(
      'success',
      TEXT.toast.bookingConfirmed,
      { text: CATALOG_TEXT.payNow, to },
      navigate,
    );

  const readOnly = (id: string, label: string, value: string) => (
    <Field id={id} label={label}>
      <input id={id} className="input w-full" value={value} readOnly />
    </Field>
  );
  const required = (id: keyof Values, label: string, extra: object = {}) => (
    <TextField
      id={`booking-${id}`}
      label={label}
      error={errors[id]?.message}
      errorAt="label"
      {...extra}
      registration={register(id, {
        required: TEXT.validation.fieldRequired,
        validate: (v) => v.trim().length > 0 || TEXT.validation.fieldRequired,
      })}
    />
  );

  return (
    <Modal open onClose={onClose} title={TEXT.booking.title(product.modelName)}>
      <form id="booking-form" onSubmit={handleSubmit(onSubmit)} noValidate>
        {readOnly('booking-name', 'Name', user.displayName ?? '')}
        {readOnly('booking-email', 'Email', user.email)}
        {readOnly('booking-model', 'Model', product.modelName)}
        {readOnly('booking-price', 'Price', formatDollars(product.resellPrice))}
        {required('location', 'Location', { placeholder: TEXT.booking.locationPlaceholder })}
        {required('number', 'Phone number', { type: 'tel', autoComplete: 'tel' })}
        <div className="modal-action">
          <button type="button" className="btn" onClick={onClose}>
            {TEXT.booking.cancel}
          </button>
          <button type="submit" className="btn btn-primary" disabled={isSubmitting}>
            {isSubmitting && (
              <span className="loading loading-spinner loading-sm" aria-hidden="true" />
            )}
            {TEXT.booking.order}
          </button>
        </div>
      </form>
    </Modal>
  );
}
