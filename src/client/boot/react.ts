/** A step of the app's start (boot.ts): React, evaluated in a task of its own. */
export { createElement } from 'react';
