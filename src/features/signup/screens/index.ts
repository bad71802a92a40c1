export * as AboutYou from './AboutYouScreens';
export * as Closing from './ClosingScreens';
export * as Code from './CodeScreens';
export * as Contract from './ContractScreen';
export * as Freelance from './FreelanceScreens';
export * as Identity from './IdentityScreens';
export * as Outcome from './OutcomeScreens';
export * as SignUp from './SignUpScreen';
