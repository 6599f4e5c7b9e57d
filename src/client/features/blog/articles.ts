import type { BlogItem } from '@shared/entities';

export const blogArticles: readonly BlogItem[] = [
  {
    id: '1',
    question: 'What are the different ways to manage a state in a React application?',
    answer:
      'React state can live in a component, a shared parent, context, a reducer, a server cache, the URL or an external store. ' +
      'Choosing well comes down to two questions: who needs the data, and where does it come from?\n\n' +
      'Local state with useState is the default. Whether a menu is open, the draft text of an input or the selected tab of a panel belong to the component that renders them. It is easy to read, easy to delete, and it disappears when the component unmounts.\n\n' +
      'When two siblings need the same value, lift the state up to their closest common parent and pass it down as props, together with callbacks that change it. This keeps a single source of truth. It only hurts when the value must pass through many layers that do not use it, which is known as prop drilling.\n\n' +
      "Context solves prop drilling for data that many distant components read, such as the signed-in user, the theme or the locale. It is a delivery mechanism rather than a state manager: the value still lives in some component's state, and every consumer re-renders when it changes. Keep context values small and fairly stable, or split them into several contexts.\n\n" +
      'useReducer fits state with many related fields, or updates that depend on the previous value, such as a multi-step checkout or a shopping cart. Every change goes through one pure function that turns the current state and an action into the next state, which makes the logic easy to test. A reducer combined with context gives you a lightweight app-wide store.\n\n' +
      'Data fetched from an API is a different kind of state: the server owns it and your copy can go stale. Libraries such as TanStack Query or SWR cache responses, deduplicate requests, refetch in the background and track loading and error states. This removes most hand-written fetching in useEffect and keeps server data out of client stores.\n\n' +
      'The URL is state too. Search terms, filters, sorting and the current page often belong in the path or query string, so people can bookmark, share and reload a view, and the back button behaves as expected.\n\n' +
      'External stores such as Zustand, Redux Toolkit or Jotai make sense when a lot of client-only state is shared across the app, changes often, or benefits from devtools and middleware. Components subscribe only to the slice they need.\n\n' +
      'A practical rule: start local, lift when needed, keep server data in a query cache, put shareable view state in the URL, and reach for context or a dedicated store only when real pain appears.',
  },
  {
    id: '2',
    question: 'How does prototypical inheritance work?',
    answer:
      'In JavaScript, objects inherit from other objects: each links to a prototype, and property lookups follow that chain. ' +
      'There are no classes in the classical sense underneath; even the class keyword is built on this mechanism.\n\n' +
      "Every object has an internal [[Prototype]] link, which you can read with Object.getPrototypeOf(obj). When you access obj.name, the engine first looks for an own property called name. If there is none, it checks the prototype, then the prototype's prototype, and so on, until it finds the property or reaches null at the end of the chain, in which case the result is undefined. Methods are found the same way, and when you call obj.method(), this still refers to obj, not to the prototype where the method was found.\n\n" +
      "Object.create(proto) is the most direct way to use this. If animal is an object with a speak() method that returns this.sound, then Object.create(animal) gives you a new, empty object linked to animal. Set its sound to 'woof' and calling speak() on it works, even though it has no speak property of its own. Object.create(null) produces an object with no prototype at all, which is handy for plain dictionaries.\n\n" +
      'Before ES2015, constructor functions were the usual pattern. Every regular function has a prototype property, and calling it with new creates an object whose internal prototype points to that property. Methods placed on Person.prototype are therefore shared by all instances instead of being copied into each one. Inheritance between constructors was wired up by hand with Object.create(Parent.prototype) and a call to Parent inside the child constructor.\n\n' +
      'The class syntax is largely sugar over the same model. class Dog extends Animal links Dog.prototype to Animal.prototype, and also links Dog itself to Animal so static members are inherited. Classes add real conveniences, such as super calls, private #fields and stricter rules (a class cannot be called without new), but methods still live on the prototype object and lookups still walk the chain.\n\n' +
      'Writing a property works differently from reading one: an assignment creates or updates an own property on the object itself. If a prototype already has a property with that name, the new own property shadows it and the prototype stays untouched, which is how instances override shared defaults safely. The exceptions are setters and read-only properties inherited from a prototype, which intercept or block the assignment.\n\n' +
      "In practice, use Object.hasOwn(obj, key) to tell own properties from inherited ones, avoid changing an object's prototype after creation because engines optimize for stable shapes, and never modify built-in prototypes such as Array.prototype in application code.",
  },
  {
    id: '3',
    question: 'What is a unit test? Why should we write unit tests?',
    answer:
      'A unit test is a small, automated check that runs one piece of code, such as a function, and verifies its result. ' +
      'We write them because they catch mistakes early, make changes safer and document how the code is meant to behave.\n\n' +
      'The unit is the smallest piece of behavior worth checking on its own: a function that calculates a discount, a validator, a hook or a component. A good unit test is isolated. It does not depend on the network, a real database, the clock or the order of other tests. Slow or unpredictable collaborators are replaced with simple fakes or stubs, so a failure points straight at the code under test. Most tests follow the same shape: arrange the inputs, act by calling the code, then assert on the result.\n\n' +
      'Because they avoid input and output, unit tests run in milliseconds. Thousands of them can run on every save and on every pull request, so a bug shows up minutes after it was introduced, while the change is still fresh in your mind, instead of weeks later in a report from a user.\n\n' +
      'Tests are also a safety net for refactoring. If you restructure a pricing function or swap a library and the suite stays green, you have good evidence that the behavior did not change. This only works when tests check observable behavior, such as return values and rendered output, rather than internal details like which private helper was called. Tests coupled to the implementation break on every refactor, and people soon stop trusting them.\n\n' +
      "Writing tests puts healthy pressure on design. Code that is hard to test usually has too many responsibilities or hidden dependencies. Extracting pure functions, passing dependencies in explicitly and keeping side effects at the edges makes code easier to test and easier to understand. A well-named test, such as 'rejects a listing with a negative price', also documents a business rule better than a comment can.\n\n" +
      'Not everything deserves a unit test. Skip trivial getters, generated code and third-party libraries, which their authors already test. Code that is mostly wiring between a database, an HTTP layer and the UI is better covered by integration or end-to-end tests that exercise the real pieces together. Chasing 100 percent coverage tends to produce brittle tests that assert very little; focus instead on business rules, edge cases and bugs you have already fixed, so they cannot quietly return.\n\n' +
      'Unit tests are the broad, cheap base of a testing strategy, not the whole of it. Combined with a smaller number of integration and end-to-end tests, they let a team ship changes quickly and with confidence.',
  },
  {
    id: '4',
    question: 'React vs. Angular vs. Vue?',
    answer:
      'All three are mature choices for building web interfaces; the real difference is how much each one decides for you. ' +
      'React is a UI library, Angular is a complete framework, and Vue sits in between as a progressive framework.\n\n' +
      'React focuses on rendering components. You describe the UI as a function of state with JSX, and React works out what changed. Routing, data fetching, forms and global state come from the wider ecosystem or from meta-frameworks such as Next.js and React Router. That freedom is powerful, but the team has to make, and agree on, many decisions.\n\n' +
      'Angular ships with almost everything: a router, forms, an HTTP client, dependency injection, testing tools and a CLI that generates a consistent project structure. It is built on TypeScript and has traditionally used RxJS for asynchronous work. Vue offers single-file components that combine a template, script and styles, with an official router and the Pinia state library covering most needs, and Nuxt as a full-stack option.\n\n' +
      'The reactivity models differ too. React re-runs a component function when its state or props change and compares the new output with the previous one; memoization and the React Compiler help skip unnecessary work. Vue wraps data in reactive proxies that track exactly what each component reads, so only affected parts update. Angular historically relied on Zone.js to trigger change detection, and now uses signals for more precise, fine-grained updates.\n\n' +
      "Vue is usually considered the gentlest to learn, especially for developers comfortable with HTML templates. React's core API is small, but mastering hooks and choosing the surrounding tools takes time. Angular has the steepest start, with concepts such as dependency injection, decorators and observables, but rewards it with strong consistency across large codebases.\n\n" +
      'React has the largest ecosystem and job market, plus React Native for mobile apps. Angular is popular in enterprises that value its conventions and predictable release schedule. Vue has a loyal community and excellent official documentation.\n\n' +
      "Pick React when you want flexibility, a huge choice of libraries or shared skills with mobile. Pick Angular for large teams and long-lived applications where built-in structure matters more than freedom. Pick Vue when you want an approachable framework with sensible official defaults. In practice, the team's existing experience is often the deciding factor, and any of the three can produce an excellent product.",
  },
];
